// The ids a list has read, to stop at one read twice (./paginate.ts): the one thing a long read
// keeps that grows with the list. The service lists newest first, so ids usually arrive as
// numbers, each below the one before: those are kept as a sorted run, 8 bytes an id, where none
// can repeat an earlier one. The first id that breaks that order (or is not a number) moves them
// all to a Set, which answers from then on. 100,000 ids: 1.7–2.0 MB kept against a Set's 2.5 MB
// (and its table held twice while it grows), half the CPU (bench/RESULTS.md, "Issue 36 §2, round 3").

export class SeenIds {
  #run = new Float64Array(1024);
  #length = 0;
  #set: Set<number | string> | undefined;

  /** Keeps `id`; false when it was read before (as a Set would say: 0 and -0 are one, NaN is NaN). */
  add(id: number | string): boolean {
    if (this.#set === undefined) {
      const last = this.#length === 0 ? Number.POSITIVE_INFINITY : (this.#run[this.#length - 1] as number);
      if (typeof id === 'number' && id < last && !Object.is(id, -0)) {
        if (this.#length === this.#run.length) {
          const grown = new Float64Array(this.#run.length * 2);
          grown.set(this.#run);
          this.#run = grown;
        }
        this.#run[this.#length++] = id;
        return true;
      }
      this.#set = new Set(this.#run.subarray(0, this.#length));
      this.#run = new Float64Array(0);
      this.#length = 0;
    }
    const size = this.#set.size;
    this.#set.add(id);
    return this.#set.size > size;
  }
}
