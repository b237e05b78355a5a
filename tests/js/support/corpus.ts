// The shared benchmark corpus as documents, for tests that check every corpus file:
// each .json file, and each line of an .ndjson / .jsonl file (one document per line).
import { listShared, readShared } from '#files';

export interface CorpusDocument {
  /** The file's name; a line of a multi-document file as "name:line" (1-based). */
  name: string;
  bytes: Uint8Array;
}

const MULTI_DOCUMENT = /\.(ndjson|jsonl)$/i;

/**
 * Every corpus document, or null when ../shared/corpus is not there. `every`: each n-th
 * line of multi-document files; `names`: the folder's listing, when the caller has it.
 */
export async function corpusDocuments({ every = 1, names: listed }: { every?: number; names?: string[] } = {}): Promise<CorpusDocument[] | null> {
  const names = listed ?? (await listShared('corpus'));
  if (!names) return null;
  const docs: CorpusDocument[] = [];
  for (const name of names) {
    if (name.endsWith('.json')) {
      docs.push({ name, bytes: await readShared(`corpus/${name}`) });
    } else if (MULTI_DOCUMENT.test(name)) {
      const bytes = await readShared(`corpus/${name}`);
      let line = 0;
      for (let start = 0; start < bytes.length; ) {
        let end = bytes.indexOf(0x0a, start);
        if (end < 0) end = bytes.length;
        const next = end + 1;
        if (end > start && bytes[end - 1] === 0x0d) end--;
        line++;
        if (end > start && (line - 1) % every === 0) docs.push({ name: `${name}:${line}`, bytes: bytes.subarray(start, end) });
        start = next;
      }
    }
  }
  return docs;
}
