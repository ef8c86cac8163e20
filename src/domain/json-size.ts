// How big a JSON value is once it is written out: a value can share nodes (a YAML alias, a
// JMESPath `[@, @]`), so a few kilobytes in memory can be gigabytes of text. Counted once per
// shared node (memoized by identity), never by writing it out.

export class TooBigError extends Error {
  override name = 'TooBigError';
  constructor(readonly limit: 'values' | 'depth') {
    super(`too many ${limit}`);
  }
}

/**
 * The number of values (scalars, objects and arrays) `root` holds written out; TooBigError
 * as soon as it passes `maxValues`, or nests deeper than `maxDepth` (a cycle included).
 */
export function writtenOutValues(
  root: unknown,
  maxValues: number,
  maxDepth = Number.POSITIVE_INFINITY,
): number {
  const counted = new Map<object, number>();
  const visiting = new Set<object>();
  const count = (node: unknown, depth: number): number => {
    if (node === null || typeof node !== 'object') return 1;
    const known = counted.get(node);
    if (known !== undefined) return known;
    if (depth > maxDepth || visiting.has(node)) throw new TooBigError('depth');
    visiting.add(node);
    let total = 1;
    for (const child of Object.values(node)) {
      total += count(child, depth + 1);
      if (total > maxValues) throw new TooBigError('values');
    }
    visiting.delete(node);
    counted.set(node, total);
    return total;
  };
  return count(root, 0);
}

/**
 * About how many bytes `root` takes written out as JSON (strings counted in UTF-16 units, a
 * lower bound), counted once per shared node and stopped as soon as it passes `maxBytes`.
 */
export function writtenOutBytes(root: unknown, maxBytes: number): number {
  const counted = new Map<object, number>();
  const count = (node: unknown): number => {
    if (typeof node === 'string') return node.length + 2;
    if (node === null || typeof node !== 'object') return String(node).length;
    const known = counted.get(node);
    if (known !== undefined) return known;
    let size = 2;
    let first = true;
    for (const [key, child] of Object.entries(node)) {
      // A comma before every entry but the first; an object's entry is "key": before its value.
      size += (first ? 0 : 1) + (Array.isArray(node) ? 0 : key.length + 3) + count(child);
      first = false;
      if (size > maxBytes) return size;
    }
    counted.set(node, size);
    return size;
  };
  return count(root);
}

/**
 * How deep objects and arrays nest in JSON text (`{}` is 1, `[{}]` 2, a scalar 0), found in one
 * pass over its characters before anything is built: JSON.parse of text nested millions deep
 * takes seconds and hundreds of MB (or overflows the stack) before a check of the value could
 * refuse it. Brackets inside strings do not count. Counting stops once past `stopPast`: the
 * answer is then some depth above it.
 */
export function jsonNestingDepth(text: string, stopPast = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest) deepest = depth;
      if (deepest > stopPast) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}
