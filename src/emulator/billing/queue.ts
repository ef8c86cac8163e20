// A binary min-heap: the runner's work, earliest first.

export class MinHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let at = items.length - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.before(items[at] as T, items[parent] as T)) break;
      [items[at], items[parent]] = [items[parent] as T, items[at] as T];
      at = parent;
    }
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    let at = 0;
    for (;;) {
      const left = at * 2 + 1;
      const right = left + 1;
      let least = at;
      if (left < items.length && this.before(items[left] as T, items[least] as T)) least = left;
      if (right < items.length && this.before(items[right] as T, items[least] as T)) least = right;
      if (least === at) return top;
      [items[at], items[least]] = [items[least] as T, items[at] as T];
      at = least;
    }
  }
}
