// The Buffers a list page is copied into, used again once its answer has gone out. A fresh
// Buffer of a page's ~130 KB costs ~0.6 ms of CPU each time (memory of that size is mapped,
// faulted in and given back at every allocation), the copy into a kept one ~0.02 ms
// (bench/RESULTS.md, "Issue 36 §2, round 5").

/** Kept at most: one a concurrent reader, and more. */
const KEEP = 16;
/** A Buffer larger than this is not kept (a page is at most 100 orders). */
const KEEP_BYTES = 4 * 1024 * 1024;
const FIRST_BYTES = 256 * 1024;

const kept: Buffer[] = [];

/**
 * `parts` copied one after another into a kept Buffer (or a new one); `release` gives it back,
 * once nothing will read `bytes` again (the answer sent, or its connection gone). Calling it
 * more than once is harmless.
 */
export function pageBytes(parts: readonly Buffer[]): { bytes: Buffer; release: () => void } {
  let size = 0;
  for (const part of parts) size += part.length;
  const at = kept.findIndex((buffer) => buffer.length >= size);
  const buffer =
    at >= 0 ? (kept.splice(at, 1)[0] as Buffer) : Buffer.allocUnsafe(Math.max(FIRST_BYTES, size));
  let offset = 0;
  for (const part of parts) offset += part.copy(buffer, offset);
  let released = false;
  return {
    bytes: buffer.subarray(0, size),
    release() {
      if (released) return;
      released = true;
      if (kept.length < KEEP && buffer.length <= KEEP_BYTES) kept.push(buffer);
    },
  };
}
