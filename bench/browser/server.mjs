// A small static server for the browser benchmark page, on 127.0.0.1:
//   /                        -> redirects to /bench/browser/
//   /<repo path>             -> files of the repository (dist/, bench/, ...)
//   /__bench/corpus.json     -> [{ name, url, source }]: ../shared/corpus/*.json, *.ndjson + files given
//   /__bench/shared/<name>   -> a file of ../shared/corpus
//   /__bench/user/<i>        -> the i-th file given on the command line
//   /__bench/peers.mjs       -> bench/peers.mjs and its packages bundled by esbuild (404 if
//                               that fails: the page then runs without peers)
// Pages are cross-origin isolated (COOP/COEP), which gives the page 5 us timers.
// Run it alone to open the page in your own browser: node bench/browser/server.mjs [--port N] [files...]
import { createServer } from 'node:http';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
const sharedCorpus = resolve(root, '../shared/corpus');

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.ndjson': 'application/x-ndjson',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

// A peer package that is not installed stays an import that fails in the page (where
// loadPeers() reports it missing) instead of failing the whole bundle.
const missingPackagesExternal = {
  name: 'missing-packages-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      const parts = args.path.split('/');
      const name = args.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
      // Installed anywhere node would look from the importing file?
      for (let dir = args.resolveDir || root; ; dir = resolve(dir, '..')) {
        if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return undefined;
        if (dir === resolve(dir, '..')) break;
      }
      return { path: args.path, external: true };
    });
  },
};

let peersBundle;
async function bundlePeers() {
  if (peersBundle === undefined) {
    try {
      const { build } = await import('esbuild');
      const out = await build({
        entryPoints: [join(root, 'bench/peers.mjs')],
        bundle: true,
        format: 'esm',
        platform: 'browser',
        write: false,
        logLevel: 'silent',
        plugins: [missingPackagesExternal],
      });
      peersBundle = out.outputFiles[0].contents;
    } catch (e) {
      peersBundle = null;
      console.error(`server: peers not bundled (${e.message.split('\n')[0]}); the page runs without them`);
    }
  }
  return peersBundle;
}

/**
 * Starts the server. `files`: user files (paths) to offer as corpus; `shared`: include
 * ../shared/corpus. Returns { url, close() }.
 */
export async function startServer({ port = 0, files = [], shared = true } = {}) {
  const userFiles = [];
  for (const f of files) {
    const st = statSync(f);
    if (st.isDirectory()) {
      for (const n of readdirSync(f).filter((x) => /\.(json|ndjson|jsonl)$/i.test(x)).sort()) userFiles.push(join(f, n));
    } else userFiles.push(f);
  }
  const corpus = [];
  if (shared && existsSync(sharedCorpus)) {
    for (const n of readdirSync(sharedCorpus).filter((x) => /\.(json|ndjson|jsonl)$/i.test(x)).sort()) {
      corpus.push({ name: n, url: `/__bench/shared/${encodeURIComponent(n)}`, source: 'shared' });
    }
  }
  userFiles.forEach((f, i) => corpus.push({ name: basename(f), url: `/__bench/user/${i}`, source: f }));

  const server = createServer(async (req, res) => {
    const send = (status, body, type = 'text/plain; charset=utf-8') => {
      res.writeHead(status, { 'Content-Type': type, ...ISOLATION });
      res.end(body);
    };
    try {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      if (path === '/') {
        res.writeHead(302, { Location: '/bench/browser/', ...ISOLATION });
        return res.end();
      }
      if (path === '/favicon.ico') {
        res.writeHead(204, ISOLATION);
        return res.end();
      }
      if (path === '/__bench/corpus.json') {
        return send(200, JSON.stringify({ shared: shared && existsSync(sharedCorpus), sharedPath: sharedCorpus, files: corpus }), MIME['.json']);
      }
      if (path === '/__bench/peers.mjs') {
        const b = await bundlePeers();
        return b ? send(200, b, MIME['.mjs']) : send(404, 'peers not available');
      }
      if (path.startsWith('/__bench/shared/')) {
        const name = path.slice('/__bench/shared/'.length);
        const entry = corpus.find((c) => c.source === 'shared' && c.name === name);
        return entry ? send(200, readFileSync(join(sharedCorpus, name)), 'application/octet-stream') : send(404, 'not found');
      }
      if (path.startsWith('/__bench/user/')) {
        const f = userFiles[Number(path.slice('/__bench/user/'.length))];
        return f ? send(200, readFileSync(f), 'application/octet-stream') : send(404, 'not found');
      }
      let file = resolve(root, '.' + path);
      if (file !== root && !file.startsWith(root + sep)) return send(403, 'forbidden');
      if (file.includes(`${sep}node_modules${sep}`) || file.includes(`${sep}.git${sep}`)) return send(403, 'forbidden');
      const st = statSync(file, { throwIfNoEntry: false });
      if (st?.isDirectory()) {
        if (!path.endsWith('/')) {
          res.writeHead(301, { Location: path + '/', ...ISOLATION });
          return res.end();
        }
        file = join(file, 'index.html');
      }
      if (!existsSync(file)) return send(404, 'not found');
      return send(200, readFileSync(file), MIME[extname(file)] ?? 'application/octet-stream');
    } catch (e) {
      return send(500, String(e?.message ?? e));
    }
  });
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { url, corpus, close: () => new Promise((r) => server.close(r)) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  let port = 8787;
  const i = args.indexOf('--port');
  if (i >= 0) {
    port = Number(args[i + 1]);
    args.splice(i, 2);
  }
  const s = await startServer({ port, files: args });
  console.log(`benchmark page: ${s.url}/bench/browser/  (add ?quick=1 for a short run; Ctrl-C stops)`);
}
