// Where a list's pages wait as bytes between their arrival and their parse (issue 36 §2): a few
// buffers used again, page after page. A new buffer for each page of ~130 KB is memory outside
// V8's heap that returns only when V8 collects its Buffer object, which by then has usually
// lived into the old generation: at 100,000 orders 15 MB of them were held at once, against
// 9.5 MB at 10,000 (bench/RESULTS.md, "Issue 36 §2, round 3").

/** Buffers are made in steps of this size, so that the pages of one list fit the same ones. */
const STEP = 64 * 1024;

export class ByteShelf {
  readonly #free: ArrayBuffer[] = [];

  /** `keep`: buffers kept for reuse at most (more than the pages a read holds at once is waste). */
  constructor(private readonly keep: number) {}

  /** `chunks` (`size` bytes in all) copied into one buffer: a kept one when one is large enough. */
  fill(chunks: readonly Buffer[], size: number): Buffer {
    const at = this.#free.findIndex((store) => store.byteLength >= size);
    const store =
      at >= 0 ? (this.#free.splice(at, 1)[0] as ArrayBuffer) : new ArrayBuffer(Math.ceil(size / STEP) * STEP);
    const bytes = Buffer.from(store, 0, size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    return bytes;
  }

  /** `bytes`, made by fill and no longer read by anyone, may be written over from now on. */
  give(bytes: Buffer): void {
    if (this.#free.length < this.keep && !this.#free.includes(bytes.buffer as ArrayBuffer)) {
      this.#free.push(bytes.buffer as ArrayBuffer);
    }
  }
}
