// A list's --total for a person: the footer under a table, or the lines beside csv and tsv
// (src/domain/totals.ts counts; src/format/strategies.ts puts them where each format says).

import { isRecord } from '../domain/records.js';
import type { OrderTotal, PaymentTotal } from '../domain/totals.js';
import { formatAmount, plural } from './text.js';

/** The lines of a payments total: the count, then per currency paid, refunded and net. */
export function paymentTotalLines(summary: unknown): string[] {
  if (!isRecord(summary)) return [];
  const total = summary as unknown as PaymentTotal;
  const lines = [`Total: ${plural(total.count, 'payment')}.`];
  for (const [currency, s] of Object.entries(total.sums)) {
    lines.push(
      `${currency}: paid ${formatAmount(s.paid, currency)}, refunded ${formatAmount(s.refunded, currency)}, net ${formatAmount(s.net, currency)} (succeeded debits and captures less refunds).`,
    );
  }
  return lines;
}

/** The lines of an orders total: the count and the amounts per currency, then the monthly recurring amount. */
export function orderTotalLines(summary: unknown): string[] {
  if (!isRecord(summary)) return [];
  const total = summary as unknown as OrderTotal;
  const sums = Object.entries(total.sums).map(([c, s]) => formatAmount(s.amount, c));
  const lines = [
    `Total: ${plural(total.count, 'order')}${sums.length ? `; amounts ${sums.join(', ')}` : ''}.`,
  ];
  if (total.monthly_recurring) {
    const monthly = Object.entries(total.monthly_recurring);
    lines.push(
      monthly.length === 0
        ? 'Monthly recurring: none (no active subscription among them).'
        : `Monthly recurring: ${monthly
            .map(
              ([c, m]) =>
                `${formatAmount(m.amount, c)} from ${plural(m.subscriptions, 'active subscription')}`,
            )
            .join(', ')} (each next payment over the months of its cycle).`,
    );
  }
  return lines;
}
