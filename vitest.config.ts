// Two projects run the same specs: Node, and real headless Chromium (Debian's package,
// driven by Playwright). Specs import the package as 'wasmjson' and read ../shared
// through '#files', which each project points at its own implementation.
import { readdir, readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { playwright } from '@vitest/browser-playwright';
import type { BrowserCommand } from 'vitest/node';
import { defineConfig } from 'vitest/config';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium.mjs';

const root = fileURLToPath(new URL('.', import.meta.url));
const shared = resolve(root, '../shared');


// Server-side helpers the browser specs call to read ../shared.
const listShared: BrowserCommand<[string]> = async (_ctx, sub) => {
  try {
    return (await readdir(resolve(shared, sub))).sort();
  } catch {
    return null;
  }
};
const readSharedBase64: BrowserCommand<[string]> = async (_ctx, rel) =>
  (await readFile(resolve(shared, rel))).toString('base64');
const sharedExists: BrowserCommand<[]> = async () => (await stat(shared).catch(() => null))?.isDirectory() ?? false;

export default defineConfig({
  test: {
    projects: [
      {
        resolve: {
          alias: {
            wasmjson: resolve(root, 'dist/node.mjs'),
            '#files': resolve(root, 'tests/js/support/files.node.ts'),
          },
        },
        test: {
          name: 'node',
          include: ['tests/js/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
        },
      },
      {
        resolve: {
          alias: {
            wasmjson: resolve(root, 'dist/browser.mjs'),
            '#files': resolve(root, 'tests/js/support/files.browser.ts'),
          },
        },
        server: { fs: { allow: [root, shared] } },
        test: {
          name: 'chromium',
          include: ['tests/js/**/*.test.ts'],
          exclude: ['tests/js/**/*.node.test.ts'],
          testTimeout: 120_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
            }),
            instances: [{ browser: 'chromium' }],
            commands: { listShared, readSharedBase64, sharedExists },
          },
        },
      },
    ],
  },
});
