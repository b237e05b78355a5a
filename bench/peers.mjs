// Other JSON libraries the suite compares with (devDependencies; each is optional: a
// missing one is listed and skipped). Each peer names the operations it can do, as
// thunk factories over a suite Doc. Node imports this file directly; for the browser
// page, bench/browser/server.mjs bundles it with esbuild.
//
// Setup choices (so results compare with native JSON's):
//   json-bigint        default options (big integers become BigNumber: such files differ
//                      from JSON.parse and are excluded for it); for parse-bigint,
//                      { useNativeBigInt: true }
//   lossless-json      parse with numbers as plain JS numbers (parseNumber = Number);
//                      for parse-bigint, unsafe integers as BigInt (losslessBigint)
//   secure-json-parse  default options (throws on __proto__ keys)
//   @jsonjoy.com/json-pack 1.x  JsonDecoder.read(bytes) / JsonEncoder.encode(value)
//   canonicalize, json-canonicalize  RFC 8785 writers, over JSON.parse(text) (like the
//                      canonicalize baseline), and over the value (canonicalize-value)
//   stream-json        parse-bytes: its tokenizer (jsonParser, packed values) feeding its
//                      Assembler, the bytes decoded and fed in 64 KiB chunks as a file
//                      stream delivers them; called synchronously, without stream
//                      objects, its fastest use (a whole document as one chunk fails on
//                      twitter.json in stream-json 3.8)

import { losslessBigint } from './suite.mjs';

async function tryImport(load) {
  try {
    return await load();
  } catch {
    return null;
  }
}

/** Loads what is installed. Returns { peers: [...], missing: [names] }. */
export async function loadPeers() {
  const peers = [];
  const missing = [];

  const bigint = await tryImport(() => import('json-bigint'));
  if (bigint) {
    const JSONbig = bigint.default ?? bigint;
    // Native BigInts for integers of more than 15 digits (the library's own cut, a little
    // wider than 'unsafe'). It throws on some numbers with long fractions (canada.json):
    // files where it throws or differs are excluded for it.
    const JSONbigNative = JSONbig({ useNativeBigInt: true });
    peers.push({
      name: 'json-bigint',
      ops: {
        'parse-string': (doc) => {
          const t = doc.text;
          return () => JSONbig.parse(t);
        },
        'parse-bigint': (doc) => {
          const t = doc.text;
          return () => JSONbigNative.parse(t);
        },
        stringify: (doc) => {
          const v = doc.value;
          return () => JSONbig.stringify(v);
        },
      },
    });
  } else missing.push('json-bigint');

  const lossless = await tryImport(() => import('lossless-json'));
  if (lossless) {
    const toNumber = (s) => Number(s);
    peers.push({
      name: 'lossless-json',
      ops: {
        'parse-string': (doc) => {
          const t = doc.text;
          return () => lossless.parse(t, null, toNumber);
        },
        // Unsafe integers as BigInt, safe ones and fractions as numbers (as bigint: 'unsafe').
        'parse-bigint': (doc) => {
          const t = doc.text;
          return () => lossless.parse(t, null, losslessBigint);
        },
        stringify: (doc) => {
          const v = doc.value;
          return () => lossless.stringify(v);
        },
      },
    });
  } else missing.push('lossless-json');

  const sjp = await tryImport(() => import('secure-json-parse'));
  if (sjp) {
    const parse = (sjp.default ?? sjp).parse;
    peers.push({
      name: 'secure-json-parse',
      ops: {
        'parse-string': (doc) => {
          const t = doc.text;
          return () => parse(t);
        },
        'parse-secure': (doc) => {
          const t = doc.text;
          return () => parse(t);
        },
      },
    });
  } else missing.push('secure-json-parse');

  const dec = await tryImport(() => import('@jsonjoy.com/json-pack/lib/json/JsonDecoder.js'));
  const enc = await tryImport(() => import('@jsonjoy.com/json-pack/lib/json/JsonEncoder.js'));
  const wr = await tryImport(() => import('@jsonjoy.com/buffers/lib/Writer.js'));
  if (dec && enc && wr) {
    const JsonDecoder = dec.JsonDecoder ?? dec.default?.JsonDecoder;
    const JsonEncoder = enc.JsonEncoder ?? enc.default?.JsonEncoder;
    const Writer = wr.Writer ?? wr.default?.Writer;
    const decoder = new JsonDecoder();
    const jsonEncoder = new JsonEncoder(new Writer());
    peers.push({
      name: 'json-pack',
      ops: {
        'parse-bytes': (doc) => {
          const b = doc.bytes;
          return () => decoder.read(b);
        },
        encode: (doc) => {
          const v = doc.value;
          return () => jsonEncoder.encode(v);
        },
      },
    });
  } else missing.push('@jsonjoy.com/json-pack');

  const streamParser = await tryImport(() => import('stream-json/core/parser.js'));
  const streamAssembler = await tryImport(() => import('stream-json/core/assembler.js'));
  const streamDefs = await tryImport(() => import('stream-chain/defs.js'));
  if (streamParser && streamAssembler && streamDefs) {
    const { jsonParser } = streamParser;
    const Assembler = streamAssembler.default ?? streamAssembler.Assembler;
    const { none, isMany, getManyValues } = streamDefs;
    const CHUNK = 64 * 1024;
    const parseChunked = (bytes) => {
      const tokenize = jsonParser({ packValues: true, streamValues: false });
      const assembler = new Assembler();
      const feed = (out) => {
        if (out === none) return;
        if (isMany(out)) for (const token of getManyValues(out)) assembler.consume(token);
        else assembler.consume(out);
      };
      const decoder = new TextDecoder();
      for (let i = 0; i < bytes.length; i += CHUNK) feed(tokenize(decoder.decode(bytes.subarray(i, i + CHUNK), { stream: true })));
      feed(tokenize(decoder.decode()));
      feed(tokenize(none));
      if (!assembler.done) throw new Error('stream-json: no complete value');
      return assembler.current;
    };
    peers.push({
      name: 'stream-json',
      ops: {
        'parse-bytes': (doc) => {
          const b = doc.bytes;
          return () => parseChunked(b);
        },
      },
    });
  } else missing.push('stream-json');

  for (const [name, load, pick] of [
    ['canonicalize', () => import('canonicalize'), (m) => m.default ?? m],
    ['json-canonicalize', () => import('json-canonicalize'), (m) => m.canonicalize ?? m.default?.canonicalize],
  ]) {
    const mod = await tryImport(load);
    const canon = mod && pick(mod);
    if (typeof canon === 'function') {
      peers.push({
        name,
        ops: {
          canonicalize: (doc) => {
            const t = doc.text;
            return () => canon(JSON.parse(t));
          },
          'canonicalize-value': (doc) => {
            const v = doc.value;
            return () => canon(v);
          },
        },
      });
    } else missing.push(name);
  }

  return { peers, missing };
}
