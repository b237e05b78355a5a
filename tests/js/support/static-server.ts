// A static file server on 127.0.0.1 for the tests that drive Chromium through pages of
// their own (node tests): serves a directory, records every request and its status.
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};

export interface StaticServer {
  /** The server's root URL, ending with '/'. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `dir`; each request is logged to `log` as "<status> <path>". `headers` are added
 * to every HTML response (e.g. a Content-Security-Policy), or, as a function, to each
 * response it names them for (by path and content type).
 */
export function serve(
  dir: string,
  log: string[],
  headers: Record<string, string> | ((path: string, type: string) => Record<string, string>) = {},
): Promise<StaticServer> {
  const extra = typeof headers === 'function' ? headers : (_path: string, type: string) => (type.startsWith('text/html') ? headers : {});
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = resolve(dir, '.' + path);
    if (file !== dir && !file.startsWith(dir + sep)) file = '';
    else if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) file = join(file, 'index.html');
    let body: Buffer | undefined;
    try {
      body = file ? readFileSync(file) : undefined;
    } catch {}
    log.push(`${body ? 200 : 404} ${path}`);
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const type = MIME[extname(file)] ?? 'application/octet-stream';
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', ...extra(path, type) });
    res.end(body);
  });
  const close = () => {
    server.closeAllConnections();
    return new Promise<void>((done) => server.close(() => done()));
  };
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close }));
  });
}
