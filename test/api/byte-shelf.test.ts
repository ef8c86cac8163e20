// Issue 36 §2: a list's page buffers are reused (src/api/byte-shelf.ts). Reuse must never let
// one page's bytes show through another's: each fill holds exactly its chunks, and a buffer is
// handed out again only after it was given back. The end-to-end side (every page of a long list
// read through the shelf, in order and complete) is in paginate.test.ts and the list tests.

import { describe, expect, it } from 'vitest';
import { ByteShelf } from '../../src/api/byte-shelf.js';

const chunks = (text: string, size = 7) => {
  const bytes = Buffer.from(text);
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
};

describe('ByteShelf', () => {
  it('fills one buffer with exactly the chunks given, in order', () => {
    const shelf = new ByteShelf(4);
    const text = '{"orders":[{"id":1,"name":"Sofia García ☃"}]}';
    const bytes = shelf.fill(chunks(text), Buffer.byteLength(text));
    expect(bytes.toString('utf8')).toBe(text);
    expect(bytes.length).toBe(Buffer.byteLength(text));
  });

  it('reuses a buffer given back, and only then; a shorter page leaves nothing of the longer one', () => {
    const shelf = new ByteShelf(4);
    const long = `{"orders":[${'1,'.repeat(5000)}2]}`;
    const first = shelf.fill(chunks(long, 4096), long.length);
    const second = shelf.fill(chunks('{"a":1}'), 7);
    expect(second.buffer).not.toBe(first.buffer);
    shelf.give(first);
    const third = shelf.fill(chunks('{"b":2}'), 7);
    expect(third.buffer).toBe(first.buffer);
    expect(third.toString()).toBe('{"b":2}');
    expect(second.toString()).toBe('{"a":1}');
  });

  it('a buffer given back twice is handed out once; no more than `keep` are kept', () => {
    const shelf = new ByteShelf(1);
    const a = shelf.fill([Buffer.from('a')], 1);
    const b = shelf.fill([Buffer.from('b')], 1);
    shelf.give(a);
    shelf.give(a);
    shelf.give(b);
    const c = shelf.fill([Buffer.from('c')], 1);
    const d = shelf.fill([Buffer.from('d')], 1);
    expect(c.buffer).toBe(a.buffer);
    expect(d.buffer).not.toBe(a.buffer);
    expect(d.buffer).not.toBe(b.buffer);
  });

  it('a page larger than every kept buffer gets a new one', () => {
    const shelf = new ByteShelf(4);
    const small = shelf.fill([Buffer.alloc(10, 1)], 10);
    shelf.give(small);
    const size = 200 * 1024;
    const large = shelf.fill([Buffer.alloc(size, 2)], size);
    expect(large.buffer).not.toBe(small.buffer);
    expect(large.every((byte) => byte === 2)).toBe(true);
  });
});
