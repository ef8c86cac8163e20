// The orders of the emulator's state, by id, in the order they were added. An order loaded
// from a data file stays its JSON text in the file's bytes until something asks for it as an
// object: a data file of 100,000 orders starts without parsing them, and the garbage collector
// has 100,000 orders fewer to copy and mark (bench/RESULTS.md, "Issue 36 §2, round 4").

import { ByteArena } from './byte-arena.js';
import type { Order } from './types.js';

/** The bytes of a data file and where each order's JSON text is in them. */
export interface OrderTexts {
  bytes: Buffer;
  /** Order n's text is bytes[starts[n], ends[n]). */
  starts: number[];
  ends: number[];
  /** The file, to name in an error. */
  file: string;
}

export class OrderStore {
  /** The order, or (not asked for yet) the number of its text in `texts`. */
  private readonly byId = new Map<number, Order | number>();
  private texts: OrderTexts | null = null;
  /**
   * What madeFromText made of each text, kept as bytes: a text not yet asked for cannot have
   * changed. Text n's is made[madeStarts[n], madeEnds[n]); an end of 0 is "not made".
   */
  private made = new ByteArena();
  private madeStarts = new Float64Array(0);
  private madeEnds = new Float64Array(0);

  get size(): number {
    return this.byId.size;
  }

  has(id: number): boolean {
    return this.byId.has(id);
  }

  /** The order as an object (made from its text on first use, then kept: callers change it). */
  get(id: number): Order | undefined {
    const entry = this.byId.get(id);
    return typeof entry === 'number' ? this.parse(id, entry) : entry;
  }

  set(order: Order): void {
    this.byId.set(order.id, order);
  }

  delete(id: number): boolean {
    return this.byId.delete(id);
  }

  clear(): void {
    this.byId.clear();
    this.texts = null;
    this.made = new ByteArena();
    this.madeStarts = new Float64Array(0);
    this.madeEnds = new Float64Array(0);
  }

  /** Adds the orders of `texts`, the n-th of which has id ids[n]; after any earlier ones. */
  load(texts: OrderTexts, ids: readonly number[]): void {
    if (this.texts) throw new Error('the orders of one data file only');
    this.texts = texts;
    this.madeStarts = new Float64Array(ids.length);
    this.madeEnds = new Float64Array(ids.length);
    for (const [n, id] of ids.entries()) this.byId.set(id, n);
  }

  keys(): IterableIterator<number> {
    return this.byId.keys();
  }

  *values(): IterableIterator<Order> {
    for (const id of this.byId.keys()) yield this.get(id) as Order;
  }

  *entries(): IterableIterator<[number, Order]> {
    for (const id of this.byId.keys()) yield [id, this.get(id) as Order];
  }

  [Symbol.iterator](): IterableIterator<[number, Order]> {
    return this.entries();
  }

  /** Every order to read, not to change: one still a text is parsed for the look and stays a text. */
  *readOnly(): IterableIterator<Order> {
    for (const [id, entry] of this.byId) yield typeof entry === 'number' ? this.parseText(id, entry) : entry;
  }

  /**
   * make(order) as UTF-8, for an order still only a text, kept for the next call; undefined for
   * an order that is an object (it may have changed since: the caller decides what holds).
   */
  madeFromText(id: number, make: (order: Order) => string): Buffer | undefined {
    const entry = this.byId.get(id);
    if (typeof entry !== 'number') return undefined;
    if (this.madeEnds[entry] === 0) {
      const { start, end } = this.made.add(make(this.parseText(id, entry)));
      this.madeStarts[entry] = start;
      this.madeEnds[entry] = end;
    }
    return this.made.view(this.madeStarts[entry] as number, this.madeEnds[entry] as number);
  }

  /** Each order in the order added: its bytes while it is still a text, else the object. */
  *stored(): IterableIterator<Buffer | Order> {
    const texts = this.texts;
    for (const entry of this.byId.values()) {
      if (typeof entry !== 'number') yield entry;
      else if (texts) yield texts.bytes.subarray(texts.starts[entry], texts.ends[entry]);
    }
  }

  private parse(id: number, n: number): Order {
    const order = this.parseText(id, n);
    this.byId.set(id, order);
    this.madeEnds[n] = 0;
    return order;
  }

  private parseText(id: number, n: number): Order {
    const texts = this.texts as OrderTexts;
    const text = texts.bytes.toString('utf8', texts.starts[n], texts.ends[n]);
    try {
      return JSON.parse(text) as Order;
    } catch {
      throw new Error(
        `the emulator data file ${texts.file} holds order ${id} as text that is not valid JSON; delete the file or mend that line`,
      );
    }
  }
}
