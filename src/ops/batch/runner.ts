// Runs work over items with bounded concurrency and yields the results in the items' order
// (a result waits for the ones before it). Items that share a lane (the same payment) run
// one after another, so that each reads the state the previous one left. Once `signal`
// fires no new item starts; those already running finish, and the ones never started are
// left out of the results.

export interface RunOptions<T, R> {
  concurrency: number;
  signal: AbortSignal;
  /** Items with the same lane never run at the same time; undefined: no lane. */
  laneOf(item: T): string | undefined;
  /** Should not throw: a thrown error stops the run and is thrown to the reader. */
  work(item: T): Promise<R>;
}

interface Slot<R> {
  promise: Promise<R | undefined>;
  resolve(value: R | undefined): void;
  reject(error: unknown): void;
}

function slot<R>(): Slot<R> {
  let resolve!: (value: R | undefined) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<R | undefined>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A rejection is read in order by the generator; until then it must not count as unhandled.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

export async function* runInOrder<T, R>(items: readonly T[], o: RunOptions<T, R>): AsyncGenerator<R> {
  const slots = items.map(() => slot<R>());
  const lanes = new Map<string, Promise<unknown>>();
  let next = 0;
  let broken = false;

  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      const item = items[at] as T;
      const target = slots[at] as Slot<R>;
      if (o.signal.aborted || broken) {
        target.resolve(undefined);
        continue;
      }
      const lane = o.laneOf(item);
      const before = lane === undefined ? undefined : lanes.get(lane);
      const run = (async () => {
        if (before) await before;
        if (o.signal.aborted || broken) return undefined;
        return o.work(item);
      })();
      if (lane !== undefined)
        lanes.set(
          lane,
          run.catch(() => {}),
        );
      try {
        target.resolve(await run);
      } catch (err) {
        broken = true;
        target.reject(err);
      }
    }
  };
  const workers = Promise.all(
    Array.from({ length: Math.max(1, Math.min(o.concurrency, items.length)) }, worker),
  );
  try {
    for (const s of slots) {
      const result = await s.promise;
      if (result !== undefined) yield result;
    }
  } finally {
    // A reader that left early (stdout closed) starts nothing more; what runs, finishes.
    broken = true;
    await workers;
  }
}
