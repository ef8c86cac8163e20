// Many short byte strings appended to one Buffer that grows: they live outside V8's heap, so
// the garbage collector neither marks nor moves them (the answer texts of 100,000 orders are
// ~130 MB; as strings they made most of the emulator's old generation).

const FIRST_BYTES = 1024 * 1024;

export class ByteArena {
  private bytes = Buffer.allocUnsafe(0);
  private used = 0;

  /** Appends `text` as UTF-8 and returns where it starts; it ends at the start plus its byte length. */
  add(text: string): { start: number; end: number } {
    const size = Buffer.byteLength(text, 'utf8');
    if (this.used + size > this.bytes.length) this.grow(size);
    const start = this.used;
    this.used += this.bytes.write(text, start, size, 'utf8');
    return { start, end: this.used };
  }

  /** The bytes [start, end), not copied (bytes once added never change). */
  view(start: number, end: number): Buffer {
    return this.bytes.subarray(start, end);
  }

  private grow(size: number): void {
    const next = Buffer.allocUnsafe(Math.max(FIRST_BYTES, 2 * this.bytes.length, this.used + size));
    this.bytes.copy(next, 0, 0, this.used);
    this.bytes = next;
  }
}
