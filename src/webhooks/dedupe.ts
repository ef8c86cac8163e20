// Which deliveries are done (the app accepted them, or listen acknowledged them when there
// is no app), so that a retry of one is shown as a duplicate and not forwarded again. The ids
// are the signed bodies' ids (receiver.ts), never a header's.
// Bounded in count and in bytes: the oldest ids are forgotten first, and an id longer than
// MAX_KEPT_ID is kept as its SHA-256, so that no id, however long, takes more than that.

import { createHash } from 'node:crypto';

export const DEFAULT_DEDUPE_CAPACITY = 10_000;
/** What the kept ids may take in all, in bytes (UTF-8). */
export const DEFAULT_DEDUPE_BYTES = 1024 * 1024;
/** Longer ids are kept as "sha256:" and 64 hex digits: 71 bytes. */
export const MAX_KEPT_ID = 128;

export class DeliveryLedger {
  private readonly done = new Map<string, number>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private keptBytes = 0;

  constructor(
    private readonly capacity: number = DEFAULT_DEDUPE_CAPACITY,
    private readonly maxBytes: number = DEFAULT_DEDUPE_BYTES,
  ) {}

  isDone(id: string): boolean {
    const key = keyOf(id);
    const size = this.done.get(key);
    if (size === undefined) return false;
    // Refresh: a delivery still being retried stays remembered.
    this.done.delete(key);
    this.done.set(key, size);
    return true;
  }

  markDone(id: string): void {
    const key = keyOf(id);
    const old = this.done.get(key);
    if (old !== undefined) {
      this.done.delete(key);
      this.keptBytes -= old;
    }
    const size = Buffer.byteLength(key);
    this.done.set(key, size);
    this.keptBytes += size;
    while (this.done.size > this.capacity || this.keptBytes > this.maxBytes) {
      const oldest = this.done.entries().next().value;
      if (oldest === undefined) break;
      this.done.delete(oldest[0]);
      this.keptBytes -= oldest[1];
    }
  }

  get size(): number {
    return this.done.size;
  }

  /** Bytes the kept ids take (UTF-8), never above the limit given. */
  get bytes(): number {
    return this.keptBytes;
  }

  /**
   * Runs `work` for this id unless another arrival of the same id is being handled; then
   * waits for that one to finish first, so that a retry that overtakes a slow forward is
   * judged on its outcome.
   */
  async exclusive<T>(id: string, work: () => Promise<T>): Promise<T> {
    const key = keyOf(id);
    for (;;) {
      const running = this.inFlight.get(key);
      if (!running) break;
      await running;
    }
    let release: () => void = () => {};
    this.inFlight.set(
      key,
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    try {
      return await work();
    } finally {
      this.inFlight.delete(key);
      release();
    }
  }
}

function keyOf(id: string): string {
  return id.length <= MAX_KEPT_ID ? id : `sha256:${createHash('sha256').update(id).digest('hex')}`;
}
