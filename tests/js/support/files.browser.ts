// ../shared access for the Chromium project: the files are read by the vitest server
// (commands defined in vitest.config.ts) and sent over as base64.
import { commands } from 'vitest/browser';

type SharedCommands = {
  sharedExists(): Promise<boolean>;
  listShared(sub: string): Promise<string[] | null>;
  readSharedBase64(rel: string): Promise<string>;
};
const c = commands as unknown as SharedCommands;

export function haveShared(): Promise<boolean> {
  return c.sharedExists();
}
export function listShared(sub: string): Promise<string[] | null> {
  return c.listShared(sub);
}
export async function readShared(rel: string): Promise<Uint8Array> {
  const b64 = await c.readSharedBase64(rel);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
