/** The hostile values the suite sends: per kind of field, and for path segments, query strings and headers. */

/** JSON text put into a body as is: numbers JSON.stringify cannot write (1e999, -0, 2^53 + 1). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A body as JSON text, RawJson values written verbatim. */
export function serialize(body: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (value instanceof RawJson) {
      raws.push(value.text);
      return `\u0001RAW${raws.length - 1}\u0001`;
    }
    return value;
  });
  return text.replace(/"\\u0001RAW(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]!);
}

/** An object nested `depth` levels deep (the object itself is level 1). */
export function nested(depth: number, leaf: unknown = 'x'): Record<string, unknown> {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = { k: value };
  return value as Record<string, unknown>;
}

export function wide(keys: number): Record<string, number> {
  return Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i]));
}

export const NUL = 'a\u0000b';
export const HIGH_SURROGATE = 'x\uD800y';
export const LOW_SURROGATE = '\uDC00';

/** Values of the wrong type, sent to every field. */
export const WRONG_TYPES: unknown[] = [null, true, [], {}, 'x', 0, [null], { '': null }];

export const STRINGS: unknown[] = [
  NUL,
  '\u0000',
  HIGH_SURROGATE,
  LOW_SURROGATE,
  '\uDBFF\uDBFF',
  'é\u202Eabc',
  '😀'.repeat(50),
  '',
  ' ',
  "'; DROP TABLE customers; --",
  '%ff%00',
  '\\u0000',
  'x'.repeat(10_000),
  'y'.repeat(100_000),
  '\r\n\t\u000b\u001f',
  '\uFEFF',
];

export const NUMBERS: unknown[] = [
  2_147_483_647,
  2_147_483_648,
  -2_147_483_648,
  -2_147_483_649,
  2 ** 53,
  new RawJson('9007199254740993'),
  -(2 ** 53),
  1e308,
  -1e308,
  new RawJson('1e999'),
  new RawJson('-1e999'),
  new RawJson('-0'),
  new RawJson('1.0'),
  new RawJson('1e2'),
  0.5,
  -1,
  'NaN',
  'Infinity',
  '2147483648',
  '1e308',
  '0x10',
];

/** Free-form objects: deep, wide, large, and with keys or values no column can take. */
export const OBJECTS: unknown[] = [
  nested(8),
  nested(9),
  nested(33),
  nested(34),
  nested(100),
  [nested(20)],
  wide(1_001),
  { big: 'z'.repeat(20_000) },
  { [NUL]: 1 },
  { ok: { deeper: [NUL] } },
  { [HIGH_SURROGATE]: 'v' },
  { ok: LOW_SURROGATE },
  { n: new RawJson('1e999') },
  { n: 1e308, m: -0.0, big: 2 ** 60 },
  new RawJson('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
];

export const ARRAYS: unknown[] = [Array.from({ length: 5_000 }, () => 'x'), [[[[[]]]]], [1, 'x', null, {}]];

/** Whole bodies: not JSON, not an object, too deep for anything, odd encodings. */
export const RAW_BODIES: Array<{ body: string | Buffer; contentType: string }> = [
  { body: '{"a":', contentType: 'application/json' },
  { body: 'null', contentType: 'application/json' },
  { body: '"\\u0000"', contentType: 'application/json' },
  { body: '[]', contentType: 'application/json' },
  { body: '1e999', contentType: 'application/json' },
  { body: '['.repeat(3_000) + ']'.repeat(3_000), contentType: 'application/json' },
  { body: '{"a":'.repeat(3_000) + '1' + '}'.repeat(3_000), contentType: 'application/json' },
  { body: '{"a":'.repeat(33) + '1' + '}'.repeat(33), contentType: 'application/json' },
  { body: '{"a":1,"a":"\\ud800"}', contentType: 'application/json' },
  { body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), contentType: 'application/json' },
  { body: '\uFEFF{}', contentType: 'application/json' },
  { body: '{}', contentType: 'application/json; charset=utf-16' },
  { body: '{}', contentType: 'application/json; charset=latin1' },
  { body: '{}', contentType: 'text/plain' },
  { body: 'a=1', contentType: 'application/x-www-form-urlencoded' },
  { body: '--x\r\nbroken', contentType: 'multipart/form-data; boundary=x' },
];

/** Path segments, written into the URL as they are (several are not valid percent-encoding). */
export const PATH_SEGMENTS: string[] = [
  '%ff',
  '%',
  '%zz',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%C0%AF',
  '%E9',
  '%F0%9F%98%80',
  '%2F',
  '%5C',
  'x'.repeat(300),
  '%20',
  "1'%20OR%20'1'='1",
  '-1',
  '2147483648',
  '00000000-0000-0000-0000-000000000000',
];

/** Query values, written into the URL as they are. */
export const QUERY_VALUES: string[] = [
  '%00',
  'a%00b',
  '%ff',
  '%',
  '%zz',
  '%ED%A0%80',
  '%ED%B0%80',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '1e308',
  '-0',
  'NaN',
  'Infinity',
  '0x10',
  '',
  'x'.repeat(4_000),
  '%F0%9F%98%80',
  "'%20OR%201=1--",
];

/**
 * X-Idempotency-Key values that must be refused (latin1 bytes are sent as such). Leading and trailing blanks are
 * not here: the HTTP client trims them, and what is left is a valid key.
 */
export const IDEMPOTENCY_KEYS: string[] = ['\u00e9', 'caf\u00e9-key', 'a b', 'k'.repeat(256), 'k\u00a0k', '\u00ff'.repeat(10)];
