// What a refunds file adds up to, per currency, for --dry-run and the production
// confirmation: "3 refunds, 61.50 EUR; 2 full refunds whose amount is read at send time".
// A row's currency is its payment's, read from the service (GET only; nothing is sent).

import type { ApiClient } from '../../api/client.js';
import { getPayment } from '../../api/payments.js';
import { fromMinor, toMinor } from '../../domain/money.js';
import { InterruptedError } from '../../errors.js';
import { plural, singleLine } from '../../format/text.js';
import { runInOrder } from '../batch/runner.js';
import type { RefundRow } from './input.js';

const UNKNOWN = 'in an unknown currency';

/** Reads each payment's currency once; a payment that cannot be read has none. */
export async function currenciesOf(
  client: ApiClient | undefined,
  rows: readonly RefundRow[],
  o: { signal: AbortSignal; concurrency: number },
): Promise<Map<number, string | undefined>> {
  const ids = [...new Set(rows.filter((r) => r.amount !== undefined).map((r) => r.paymentId))];
  const currencies = new Map<number, string | undefined>();
  if (!client) return currencies;
  const read = runInOrder(ids, {
    concurrency: o.concurrency,
    signal: o.signal,
    laneOf: () => undefined,
    work: async (id) => {
      try {
        const payment = await getPayment(client, id, { signal: o.signal });
        const currency = typeof payment.currency === 'string' ? singleLine(payment.currency) : undefined;
        return { id, currency };
      } catch {
        return { id, currency: undefined };
      }
    },
  });
  for await (const { id, currency } of read) currencies.set(id, currency);
  if (o.signal.aborted) throw new InterruptedError();
  return currencies;
}

export function describeTotals(
  rows: readonly RefundRow[],
  currencies: ReadonlyMap<number, string | undefined>,
): string {
  const sums = new Map<string, { count: number; minor: bigint }>();
  let full = 0;
  for (const row of rows) {
    if (row.amount === undefined) {
      full += 1;
      continue;
    }
    const currency = currencies.get(row.paymentId) ?? UNKNOWN;
    const sum = sums.get(currency) ?? { count: 0, minor: 0n };
    sum.count += 1;
    sum.minor += toMinor(row.amount);
    sums.set(currency, sum);
  }
  const parts = [...sums]
    .sort(([a], [b]) => (a === UNKNOWN ? 1 : b === UNKNOWN ? -1 : a.localeCompare(b)))
    .map(([currency, { count, minor }]) => `${plural(count, 'refund')}, ${fromMinor(minor)} ${currency}`);
  if (full > 0) parts.push(`${plural(full, 'full refund')} whose amount is read at send time`);
  return parts.length === 0 ? 'no refunds' : parts.join('; ');
}
