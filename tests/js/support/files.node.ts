// ../shared access for the Node project (see files.browser.ts for Chromium's).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const shared = fileURLToPath(new URL('../../../../shared/', import.meta.url));

export async function haveShared(): Promise<boolean> {
  return existsSync(shared);
}
/** Sorted names in a folder of ../shared, or null when it is not there. */
export async function listShared(sub: string): Promise<string[] | null> {
  return existsSync(shared + sub) ? readdirSync(shared + sub).sort() : null;
}
export async function readShared(rel: string): Promise<Uint8Array> {
  return new Uint8Array(readFileSync(shared + rel));
}
