// The built-in benchmark corpus: generated deterministically (seeded), so the benchmark
// runs on a fresh clone without ../shared. Each generator mimics one shape of real JSON.
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
      id_str: String(1e17 + i),
      text: words(r, WORDS, 8 + Math.floor(r() * 12)),
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
  return JSON.stringify({ statuses, search_metadata: { count: statuses.length, completed_in: 0.087 } });
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
  for (let i = 0; i < 60; i++) {
    const ring = [];
    for (let j = 0; j < 1000; j++) ring.push([-180 + r() * 360, -90 + r() * 180]);
    rings.push(ring);
  }
  return JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: rings } }] });
}

/** String-heavy Cyrillic text, as UTF-8 and fully \u-escaped (the War-and-Peace case). */
function cyrillic(r, escaped) {
  const paragraphs = [];
  for (let i = 0; i < 3000; i++) paragraphs.push(words(r, CYRILLIC, 30));
  const text = JSON.stringify({ title: 'Война и мир', paragraphs });
  return escaped ? text.replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')) : text;
}

/** Many small messages, one JSON document each, as an array of ~200-byte objects. */
function smallMessages(r) {
  const out = [];
  for (let i = 0; i < 5000; i++) out.push({ type: 'event', seq: i, ok: r() < 0.9, tags: ['a', 'b'], payload: { v: r() * 100, s: words(r, WORDS, 4) } });
  return JSON.stringify(out);
}

export function builtinCorpus() {
  const enc = new TextEncoder();
  const files = [
    ['gen:api-responses.json', apiResponses(rng(1))],
    ['gen:catalog.json', catalog(rng(2))],
    ['gen:geo.json', geo(rng(3))],
    ['gen:cyrillic.json', cyrillic(rng(4), false)],
    ['gen:cyrillic-escaped.json', cyrillic(rng(4), true)],
    ['gen:small-messages.json', smallMessages(rng(5))],
  ];
  return files.map(([name, text]) => ({ name, bytes: enc.encode(text) }));
}
