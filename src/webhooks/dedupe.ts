// Which deliveries are done (the app accepted them, or listen acknowledged them when there
// is no app), so that a retry of one is shown as a duplicate and not forwarded again.
// Bounded: the oldest ids are forgotten first.

export const DEFAULT_DEDUPE_CAPACITY = 10_000;

export class DeliveryLedger {
  private readonly done = new Map<string, true>();
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(private readonly capacity: number = DEFAULT_DEDUPE_CAPACITY) {}

  isDone(id: string): boolean {
    if (!this.done.has(id)) return false;
    // Refresh: a delivery still being retried stays remembered.
    this.done.delete(id);
    this.done.set(id, true);
    return true;
  }

  markDone(id: string): void {
    this.done.delete(id);
    this.done.set(id, true);
    while (this.done.size > this.capacity) {
      const oldest = this.done.keys().next().value;
      if (oldest === undefined) break;
      this.done.delete(oldest);
    }
  }

  get size(): number {
    return this.done.size;
  }

  /**
   * Runs `work` for this id unless another arrival of the same id is being handled; then
   * waits for that one to finish first, so that a retry that overtakes a slow forward is
   * judged on its outcome.
   */
  async exclusive<T>(id: string, work: () => Promise<T>): Promise<T> {
    for (;;) {
      const running = this.inFlight.get(id);
      if (!running) break;
      await running;
    }
    let release: () => void = () => {};
    this.inFlight.set(
      id,
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    try {
      return await work();
    } finally {
      this.inFlight.delete(id);
      release();
    }
  }
}
