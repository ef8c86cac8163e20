// Many short byte strings appended to Buffers of 4 MB: they live outside V8's heap, so the
// garbage collector neither marks nor moves them (the answer texts of 100,000 orders are
// ~130 MB; as strings they made most of the emulator's old generation). Filled Buffers are
// kept as they are, never copied into a larger one: no second copy while the first waits for
// a full collection.

const CHUNK_BYTES = 4 * 1024 * 1024;
/** Where a text is: its chunk's number times this, plus its offset in the chunk (exact in a double). */
const CHUNK_STRIDE = 2 ** 32;

export class ByteArena {
  private readonly chunks: Buffer[] = [];
  private used = CHUNK_BYTES;

  /** Appends `text` as UTF-8; view(start, end) gives its bytes back. */
  add(text: string): { start: number; end: number } {
    const size = Buffer.byteLength(text, 'utf8');
    let chunk = this.chunks.at(-1);
    if (chunk === undefined || this.used + size > chunk.length) {
      // A text longer than a chunk gets one of its own size.
      chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, size));
      this.chunks.push(chunk);
      this.used = 0;
    }
    const at = (this.chunks.length - 1) * CHUNK_STRIDE + this.used;
    this.used += chunk.write(text, this.used, size, 'utf8');
    return { start: at, end: at + size };
  }

  /** The bytes of the text added at [start, end), not copied (bytes once added never change). */
  view(start: number, end: number): Buffer {
    const n = Math.floor(start / CHUNK_STRIDE);
    const offset = start - n * CHUNK_STRIDE;
    return (this.chunks[n] as Buffer).subarray(offset, offset + (end - start));
  }
}
