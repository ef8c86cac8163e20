// An answer's JSON parsed without making one string of it when it is large (issue 36 §2). A
// string over V8's largest regular object (128 KB) is made in the large-object space, each in
// its own pages of memory, taken from the system and given back: a page of 100 orders (~130 KB)
// cost 5–6× the time to decode of one of 120 KB, and with JSON.parse, a quarter of the CPU of
// `orders list --all` (bench/RESULTS.md, "Issue 36 §2: long lists"). A large answer that is an
// object holding one large array is parsed in parts: the object with that array left empty, and
// the array's elements in groups of a few dozen KB, each an exact slice of the answer's bytes.
// Anything else, and anything a part does not parse, is parsed whole, which gives the same
// value or the same error.

/** Answers up to this size are parsed whole. */
const WHOLE_MAX = 96 * 1024;
/** A group of the array's elements parsed at once. */
const GROUP_MAX = 48 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

interface Layout {
  /** The largest array directly under the top-level object: its `[` and `]`. */
  open: number;
  close: number;
  /** The commas between its elements. */
  commas: number[];
  /** The top-level key it is the value of (its quotes included). */
  keyStart: number;
  keyEnd: number;
  /** Every top-level key, its quotes included (a key given twice is parsed whole). */
  keys: [number, number][];
}

/**
 * `{ value }`: what JSON.parse gives of the whole; or undefined for an answer parsed whole: not
 * large, not of that shape, or not JSON (then JSON.parse says why).
 */
export function parseInParts(bytes: Buffer): { value: unknown } | undefined {
  if (bytes.length <= WHOLE_MAX) return undefined;
  const layout = scan(bytes);
  if (!layout) return undefined;
  const { open, close, commas, keyStart, keyEnd } = layout;
  if (open + (bytes.length - close) > WHOLE_MAX) return undefined;
  try {
    const keyOf = (start: number, end: number): unknown => JSON.parse(bytes.toString('utf8', start, end + 1));
    const key = keyOf(keyStart, keyEnd);
    // Compared as parsed: "orders" and "\u006frders" are one key, of which JSON.parse keeps the last.
    if (layout.keys.filter(([start, end]) => keyOf(start, end) === key).length !== 1) return undefined;
    const envelope: unknown = JSON.parse(
      `${bytes.toString('utf8', 0, open)}[]${bytes.toString('utf8', close + 1)}`,
    );
    if (typeof key !== 'string' || typeof envelope !== 'object' || envelope === null) return undefined;
    const empty = Object.getOwnPropertyDescriptor(envelope, key)?.value;
    if (!Array.isArray(empty) || empty.length !== 0) return undefined;
    const elements = parseElements(bytes, open, close, commas);
    if (!elements) return undefined;
    // defineProperty, not assignment: the key keeps its place, and "__proto__" stays a plain key.
    Object.defineProperty(envelope, key, {
      value: elements,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    return { value: envelope };
  } catch {
    return undefined;
  }
}

/** The elements of the array between `open` and `close`, parsed a group at a time. */
function parseElements(bytes: Buffer, open: number, close: number, commas: number[]): unknown[] | undefined {
  const out: unknown[] = [];
  let from = open + 1;
  const bounds = [...commas, close];
  for (let i = 0; i < bounds.length; i++) {
    const at = bounds[i] as number;
    const end = i === bounds.length - 1 || (bounds[i + 1] as number) - from > GROUP_MAX;
    if (!end) continue;
    // The group between brackets, copied as bytes: one string made, not three.
    const text = bracketed(bytes, from, at);
    // A group with nothing in it is an element left out ("[1,,2]", "[1,]"): not JSON.
    if (commas.length > 0 && text.slice(1, -1).trim() === '') return undefined;
    const group: unknown = JSON.parse(text);
    if (!Array.isArray(group)) return undefined;
    for (const element of group) out.push(element);
    from = at + 1;
  }
  return out;
}

let scratch = Buffer.allocUnsafe(0);

function bracketed(bytes: Buffer, from: number, to: number): string {
  const length = to - from + 2;
  if (scratch.length < length) scratch = Buffer.allocUnsafe(Math.max(length, GROUP_MAX * 2));
  scratch[0] = OPEN_ARRAY;
  bytes.copy(scratch, 1, from, to);
  scratch[length - 1] = CLOSE_ARRAY;
  return scratch.toString('utf8', 0, length);
}

/** Where the parts are, or undefined for anything but an object with an array directly under it. */
function scan(bytes: Buffer): Layout | undefined {
  let i = skipSpace(bytes, 0);
  if (bytes[i] !== OPEN_OBJECT) return undefined;
  const keys: [number, number][] = [];
  let best: Omit<Layout, 'keys'> | undefined;
  let depth = 0;
  // At depth 1: the last string read and whether a colon followed it (then it is a key).
  let stringStart = -1;
  let stringEnd = -1;
  let keyStart = -1;
  let keyEnd = -1;
  // The array under the top-level object being read, if any.
  let open = -1;
  let commas: number[] = [];
  for (; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      const end = stringEndAt(bytes, i);
      if (end < 0) return undefined;
      if (depth === 1) {
        stringStart = i;
        stringEnd = end;
      }
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (depth === 2 && c === OPEN_ARRAY) {
        open = i;
        commas = [];
      }
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth === 2 && open >= 0) {
        if (c !== CLOSE_ARRAY) return undefined;
        if (!best || i - open > best.close - best.open) best = { open, close: i, commas, keyStart, keyEnd };
        open = -1;
      }
      depth--;
      if (depth === 0) {
        if (skipSpace(bytes, i + 1) !== bytes.length) return undefined;
        return best && keyStart >= 0 ? { ...best, keys } : undefined;
      }
      if (depth < 0) return undefined;
    } else if (c === COMMA && depth === 2 && open >= 0) {
      commas.push(i);
    } else if (c === COLON && depth === 1) {
      if (stringStart < 0) return undefined;
      keyStart = stringStart;
      keyEnd = stringEnd;
      keys.push([keyStart, keyEnd]);
      stringStart = -1;
    }
  }
  return undefined;
}

/** The index of the quote that closes the string opened at `at`, or -1. */
function stringEndAt(bytes: Buffer, at: number): number {
  let end = at;
  for (;;) {
    end = bytes.indexOf(QUOTE, end + 1);
    if (end < 0) return -1;
    let backslashes = 0;
    while (bytes[end - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
  }
}

function skipSpace(bytes: Buffer, at: number): number {
  let i = at;
  while (
    i < bytes.length &&
    (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)
  )
    i++;
  return i;
}
