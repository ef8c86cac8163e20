// What a list of money adds up to, per currency, counted as the records stream past: the
// `--total` of `payments list` and `orders list` (a footer, or a summary record: see
// src/format/formats.ts `total`) and the `sum` of the MCP tools. One rule each:
//   payments  paid = succeeded debits and captures, refunded = succeeded refunds, net = paid -
//             refunded; failed and pending payments, pre-authorisations and reversals move no
//             money and are only counted
//   orders    the amount (initial_amount) of each order, summed per currency; for the active
//             subscriptions among them, also the monthly recurring amount: each one's next
//             payment divided by the months of its cycle (a quarter is 3, a year 12)

import { fromMinor, isAmount, toMinor } from './money.js';
import { isRecord } from './records.js';

export interface PaymentSum {
  paid: string;
  refunded: string;
  net: string;
}

export interface PaymentTotal {
  count: number;
  sums: Record<string, PaymentSum>;
}

export interface OrderTotal {
  count: number;
  /** Per currency: the orders and the sum of their amounts. */
  sums: Record<string, { orders: number; amount: string }>;
  /** Per currency: the active subscriptions and their monthly recurring amount. */
  monthly_recurring?: Record<string, { subscriptions: number; amount: string }>;
}

const currencyOf = (r: Record<string, unknown>) => (typeof r.currency === 'string' ? r.currency : '?');

/** Payments counted and summed as they pass. */
export class PaymentTally {
  count = 0;
  private readonly totals = new Map<string, { paid: bigint; refunded: bigint }>();

  add(p: unknown): void {
    this.count += 1;
    if (!isRecord(p) || p.status !== 'succeeded' || typeof p.amount !== 'string' || !isAmount(p.amount))
      return;
    const kind = String(p.kind);
    const side = kind === 'debit' || kind === 'capture' ? 'paid' : kind === 'refund' ? 'refunded' : undefined;
    if (!side) return;
    const t = this.totals.get(currencyOf(p)) ?? { paid: 0n, refunded: 0n };
    t[side] += toMinor(p.amount);
    this.totals.set(currencyOf(p), t);
  }

  sums(): Record<string, PaymentSum> {
    return Object.fromEntries(
      [...this.totals].map(([currency, t]) => [
        currency,
        { paid: fromMinor(t.paid), refunded: fromMinor(t.refunded), net: fromMinor(t.paid - t.refunded) },
      ]),
    );
  }

  total(): PaymentTotal {
    return { count: this.count, sums: this.sums() };
  }
}

/** Per currency, what these payments add up to (the MCP tools' `sum`). */
export function paymentSums(payments: unknown): Record<string, PaymentSum> {
  const tally = new PaymentTally();
  for (const p of Array.isArray(payments) ? payments : []) tally.add(p);
  return tally.sums();
}

/** Orders counted and summed as they pass; `recurring` adds an active subscription's monthly share. */
export class OrderTally {
  count = 0;
  private readonly totals = new Map<string, { orders: number; amount: bigint }>();
  // Twelfths of a minor unit, so that a quarter's or a year's share adds up exactly.
  private readonly monthly = new Map<string, { subscriptions: number; twelfths: bigint }>();

  add(order: unknown): void {
    this.count += 1;
    if (!isRecord(order)) return;
    const amount = typeof order.initial_amount === 'string' ? order.initial_amount : undefined;
    const t = this.totals.get(currencyOf(order)) ?? { orders: 0, amount: 0n };
    t.orders += 1;
    if (amount !== undefined && isAmount(amount)) t.amount += toMinor(amount);
    this.totals.set(currencyOf(order), t);
  }

  /** An active subscription charging `amount` every `months` months. */
  recurring(currency: string, amount: string, months: number): void {
    if (!isAmount(amount) || months < 1) return;
    const m = this.monthly.get(currency) ?? { subscriptions: 0, twelfths: 0n };
    m.subscriptions += 1;
    m.twelfths += (toMinor(amount) * 12n) / BigInt(months);
    this.monthly.set(currency, m);
  }

  total(withRecurring: boolean): OrderTotal {
    const sums = Object.fromEntries(
      [...this.totals].map(([c, t]) => [c, { orders: t.orders, amount: fromMinor(t.amount) }]),
    );
    if (!withRecurring) return { count: this.count, sums };
    // Rounded half up to the minor unit, once, at the end.
    const monthly = Object.fromEntries(
      [...this.monthly].map(([c, m]) => [
        c,
        { subscriptions: m.subscriptions, amount: fromMinor((m.twelfths + 6n) / 12n) },
      ]),
    );
    return { count: this.count, sums, monthly_recurring: monthly };
  }
}
