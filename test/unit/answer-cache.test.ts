// The emulator's cache of answer texts (src/emulator/http/body.ts): an answer is sent as the
// text made for it last time only when it is the same JSON value, however it was changed.

import { describe, expect, it } from 'vitest';
import { AnswerCache, JsonText, sameJson } from '../../src/emulator/http/body.js';

const order = () => ({
  order: {
    id: 3,
    status: { value: 'active', label: 'Active' },
    customer: { first_name: 'Ada', country: 'DE' },
    order_products: [{ id: 1, qty: 2, amount: '10.00' }],
    tag_list: [],
    note: null,
  },
});

describe('sameJson', () => {
  it('is true for the same value built again, false for any change a client could see', () => {
    const parsed = JSON.parse(JSON.stringify(order()));
    expect(sameJson(parsed, order())).toBe(true);
    const changed = [
      (o: ReturnType<typeof order>) => {
        o.order.status.value = 'paused';
      },
      (o: ReturnType<typeof order>) => {
        o.order.order_products.push({ id: 2, qty: 1, amount: '1.00' });
      },
      (o: ReturnType<typeof order>) => {
        (o.order as Record<string, unknown>).extra = undefined;
      },
      (o: ReturnType<typeof order>) => {
        (o.order as Record<string, unknown>).note = '';
      },
      (o: ReturnType<typeof order>) => {
        (o.order.customer as Record<string, unknown>).country = new Date(0);
      },
    ];
    for (const change of changed) {
      const value = order();
      change(value);
      expect(sameJson(parsed, value)).toBe(false);
    }
  });

  it('tells keys in another order apart (they serialize differently)', () => {
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
  });
});

describe('AnswerCache', () => {
  it('gives the same text for the same value, and a fresh one once the value changed in place', () => {
    const cache = new AnswerCache();
    const body = order();
    const first = cache.text('/orders/3', body);
    expect(first).toBeInstanceOf(JsonText);
    expect(first.text).toBe(JSON.stringify(body));
    expect(cache.text('/orders/3', order())).toBe(first);
    // The very object it was given, changed deep inside: the copy it compares with is its own.
    body.order.customer.first_name = 'Ada Lovelace ✓';
    const second = cache.text('/orders/3', body);
    expect(second).not.toBe(first);
    expect(second.text).toBe(JSON.stringify(body));
    expect(second.length).toBe(Buffer.byteLength(second.text, 'utf8'));
  });
});
