// The folders of ../shared the specs read, with how many entries each holds. Without
// ../shared at all a spec that needs it is skipped (reported as skipped, never as
// passed); with ../shared present, a folder that is missing or holds another number of
// entries fails the spec, so a lost or cut-short suite cannot pass with fewer cases.
import { expect, type TestContext } from 'vitest';
import { haveShared, listShared } from '#files';
import { corpusDocuments, type CorpusDocument } from './corpus.js';

export const SHARED_FOLDERS = {
  'conformance/JSONTestSuite-parsing': 318,
  'conformance/JSONTestSuite-transform': 22,
  'conformance/jcs/input': 6,
  corpus: 25,
} as const;

export type SharedFolder = keyof typeof SHARED_FOLDERS;

async function skipWithoutShared(ctx: TestContext, sub: string): Promise<void> {
  if (await haveShared()) throw new Error(`../shared is present but ../shared/${sub} is not`);
  ctx.skip(`../shared not present: ${sub} cases skipped`);
}

/** The sorted entry names of a ../shared folder (see above for when it skips or fails). */
export async function sharedNames(ctx: TestContext, sub: SharedFolder): Promise<string[]> {
  const names = await listShared(sub);
  if (names === null) await skipWithoutShared(ctx, sub);
  expect(names!.length, `entries in ../shared/${sub}`).toBe(SHARED_FOLDERS[sub]);
  return names!;
}

/** Every corpus document (corpusDocuments), skipping or failing as sharedNames does. */
export async function sharedCorpus(ctx: TestContext, options?: { every?: number }): Promise<CorpusDocument[]> {
  const names = await sharedNames(ctx, 'corpus');
  return (await corpusDocuments({ ...options, names }))!;
}
