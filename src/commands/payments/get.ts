// billing payments get: its description and its code.

import type { ApiClient } from '../../api/client.js';
import { getPayment } from '../../api/payments.js';
import { notRefundable, readRefundState } from '../../api/refunds.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { fromMinor } from '../../domain/money.js';
import { COLUMNS, type Column, write, writeOne } from '../../format/index.js';
import { singleLine } from '../../format/text.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { money } from './run.js';

export const getVerb = verb({
  name: 'get',
  place: 10,
  summary: 'one payment; the detail view adds its refunds and what is left to refund',
  args: [{ name: '<id>', help: 'payment id', id: 'payment' }],
  examples: ['billing payments get 164', 'billing payments get 164 -o json'],
  output: 'record',
  moves: 'none',
});

export default defineCommand(getVerb, get);

export async function get(rt: Runtime, [id]: string[]): Promise<void> {
  const paymentId = parse.recordId('payment', id ?? '');
  const client = await rt.client();
  const payment = async () => ({
    one: await getPayment(client, paymentId, { signal: rt.signal }),
    columns: 'payment' as const,
  });
  await write(rt.output, payment, { screen: () => paymentScreen(rt, client, paymentId) });
}

async function paymentScreen(rt: Runtime, client: ApiClient, paymentId: number): Promise<void> {
  // The detail view adds the payment's refunds and what is left, read from its order's payments.
  const state = await readRefundState(client, paymentId, { signal: rt.signal });
  const refusal = notRefundable(state.payment);
  const refunds = state.orderPayments.filter((p) => p.parent_id === paymentId && p.kind === 'refund');
  const extra: Column[] = [
    {
      key: 'refunds',
      header: 'Refunds',
      value: () =>
        refunds.length === 0
          ? 'none'
          : refunds.map((p) => `${p.id}: ${money(p)} ${singleLine(String(p.status ?? ''))}`).join('; '),
    },
    {
      key: 'left_to_refund',
      header: 'Left to refund',
      value: () =>
        refusal === undefined
          ? `${fromMinor(state.left > 0n ? state.left : 0n)}${state.payment.currency ? ` ${state.payment.currency}` : ''}`
          : `none (${singleLine(refusal.replace(/^payment \d+ /, ''))})`,
    },
  ];
  await writeOne(state.payment, [...COLUMNS.payment, ...extra], rt.output);
}
