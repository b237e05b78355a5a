// The built-in benchmark corpus: generated deterministically (seeded, same bytes in every
// engine), so the benchmark runs on a fresh clone without ../shared. Each generator
// mimics one shape of real JSON. Pure JS (no Node import): the browser page uses it too.
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = 'the quick brown fox jumps over lazy dog json wasm parse fast value array object string number'.split(' ');
const CYRILLIC = 'Война и мир князь Андрей Болконский Наташа Ростова Пьер Безухов Москва Петербург'.split(' ');

function words(r, list, n) {
  let out = [];
  for (let i = 0; i < n; i++) out.push(list[Math.floor(r() * list.length)]);
  return out.join(' ');
}

/** Twitter-like API responses: nested users, entities, mixed types. */
function apiResponses(r) {
  const statuses = [];
  for (let i = 0; i < 1500; i++) {
    statuses.push({
      id: 1e17 + Math.floor(r() * 1e9),
      id_str: '1' + String(i * 7919).padStart(17, '0'),
      created_at: 'Sun Aug 31 00:' + String(10 + (i % 50)) + ':28 +0000 2014',
      text: words(r, WORDS, 8 + Math.floor(r() * 12)) + (r() < 0.2 ? ' \u{1F600} caf\u00e9 <b>&amp;</b>' : ''),
      source: '<a href="https://example.com/app" rel="nofollow">Example App</a>',
      truncated: r() < 0.1,
      user: {
        id: Math.floor(r() * 1e9),
        screen_name: 'user_' + Math.floor(r() * 1e6),
        followers_count: Math.floor(r() * 1e5),
        verified: r() < 0.05,
        profile_image_url: 'https://example.com/img/' + Math.floor(r() * 1e8) + '.png',
      },
      entities: { hashtags: [], urls: [{ url: 'https://t.co/x' + i, indices: [10, 32] }] },
      retweet_count: Math.floor(r() * 100),
      favorited: false,
      lang: 'en',
      geo: null,
    });
  }
  // As real API responses do: slashes escaped, HTML-sensitive characters as \u escapes.
  return JSON.stringify({ statuses, search_metadata: { count: statuses.length, completed_in: 0.087 } })
    .replace(/\//g, '\\/')
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e');
}

/** A catalog with many repeated keys and small integers (citm_catalog-like). */
function catalog(r) {
  const events = {};
  for (let i = 0; i < 4000; i++) {
    events[String(100000 + i)] = {
      id: 100000 + i,
      name: words(r, WORDS, 3),
      subTopicIds: [Math.floor(r() * 1000), Math.floor(r() * 1000)],
      topicIds: [Math.floor(r() * 100)],
      logo: r() < 0.5 ? null : '/images/' + i + '.jpg',
      subjectCode: null,
      description: null,
    };
  }
  return JSON.stringify({ events, areaNames: { 1: 'A', 2: 'B' } }, null, 1);
}

/** GeoJSON-like coordinates: number-heavy (canada-like). */
function geo(r) {
  const rings = [];
  for (let i = 0; i < 30; i++) {
    const ring = [];
    for (let j = 0; j < 1000; j++) ring.push([-180 + r() * 360, -90 + r() * 180]);
    rings.push(ring);
  }
  return JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: rings } }] });
}

/** String-heavy Cyrillic text, as UTF-8 and fully \u-escaped (the War-and-Peace case). */
function cyrillic(r, escaped) {
  const paragraphs = [];
  for (let i = 0; i < 1500; i++) paragraphs.push(words(r, CYRILLIC, 30));
  const text = JSON.stringify({ title: 'Война и мир', paragraphs });
  return escaped ? text.replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')) : text;
}

/** One small message (~200 bytes): the unit of chatty APIs, logs and queues. */
function message(r, i) {
  return {
    type: 'event',
    seq: i,
    ts: 1700000000000 + i * 37,
    ok: r() < 0.9,
    tags: ['a', 'b'],
    user: { id: Math.floor(r() * 1e6), name: 'user_' + Math.floor(r() * 1e4) },
    payload: { v: Math.round(r() * 1e4) / 100, s: words(r, WORDS, 6) },
    source: 'web',
  };
}

/** Many small messages: each its own document (one parse call each), as NDJSON. */
function messages(r, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(JSON.stringify(message(r, i)));
  return out;
}

/** A single ~2 KB document: one API response (a status with its user and entities). */
function doc2k(r) {
  const user = {
    id: 1234567890,
    id_str: '1234567890',
    name: 'Example User',
    screen_name: 'example_user',
    location: 'Москва',
    description: words(r, WORDS, 12),
    url: 'https://example.com',
    followers_count: 1234,
    friends_count: 567,
    verified: false,
    created_at: 'Tue Mar 29 08:11:25 +0000 2011',
    profile_image_url_https: 'https://example.com/img/1234567890/profile.png',
  };
  const status = {
    created_at: 'Sun Aug 31 00:29:15 +0000 2014',
    id: 505874924095815700,
    id_str: '505874924095815681',
    text: words(r, WORDS, 16) + ' \u{1F600}',
    truncated: false,
    entities: {
      hashtags: [{ text: 'json', indices: [10, 15] }],
      urls: [{ url: 'https://t.co/abc', expanded_url: 'https://example.com/a/b', indices: [20, 43] }],
      user_mentions: [{ screen_name: 'other', id: 42, indices: [0, 6] }],
    },
    user,
    retweet_count: 12,
    favorite_count: 34,
    lang: 'en',
    coordinates: { type: 'Point', coordinates: [37.6173, 55.7558] },
    geo: null,
    place: null,
  };
  return JSON.stringify({ statuses: [status], meta: { count: 1, next: null } }, null, 2);
}

/**
 * The built-in corpus as suite items' raw form: { name, bytes } for one document,
 * { name, docs } for many (each document is its own call).
 */
export function builtinCorpus() {
  const enc = new TextEncoder();
  const files = [
    ['gen:api-responses.json', apiResponses(rng(1))],
    ['gen:catalog.json', catalog(rng(2))],
    ['gen:geo.json', geo(rng(3))],
    ['gen:cyrillic.json', cyrillic(rng(4), false)],
    ['gen:cyrillic-escaped.json', cyrillic(rng(4), true)],
    ['gen:messages-array.json', JSON.stringify(messages(rng(5), 2000).map((m) => JSON.parse(m)))],
    ['gen:doc-200B.json', JSON.stringify(message(rng(6), 7))],
    ['gen:doc-2KB.json', doc2k(rng(7))],
  ];
  const out = files.map(([name, text]) => ({ name, bytes: enc.encode(text) }));
  out.push({ name: 'gen:messages.ndjson', docs: messages(rng(5), 2000).map((m) => enc.encode(m)) });
  return out;
}
