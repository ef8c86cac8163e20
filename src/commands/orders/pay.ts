// billing orders pay: its description and its code.

import { getOrder } from '../../api/orders.js';
import { payOrderWithCard, sendChecked } from '../../api/payments.js';
import { PRODUCTION_GUARD } from '../../cli/kit/help-text.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import { confirmMoneyMove } from '../../ops/runtime/confirm.js';
import { previewBase, previewOf, writePreviews } from '../../ops/runtime/preview.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { money, paymentIds, report } from '../payments/run.js';

export const payVerb = verb({
  name: 'pay',
  place: 70,
  summary: "collect the first payment of an order from the customer's stored card (pay_with_card)",
  args: [
    {
      name: '[ids...]',
      help: 'order id or invoice id (draft, pending or failed); several order ids for a batch',
    },
  ],
  flags: [{ flag: '--dry-run', help: 'print the request that would be sent, and send nothing' }],
  examples: [
    'billing orders pay 1042',
    'billing orders pay 1042 1043',
    'billing orders pay --file orders.csv --dry-run',
  ],
  help: PRODUCTION_GUARD,
  output: 'answer',
  moves: 'money',
  batch: 'pay',
});

export default defineCommand(payVerb, pay);

async function pay(rt: Runtime, args: string[], flags: OptionsOf<typeof payVerb>): Promise<void> {
  if (await (await import('../../cli/kit/many.js')).batchOf(rt, 'pay', args, flags)) return;
  const [id] = args;
  const orderId = await orderIdOf(rt, id);
  if (flags.dryRun) {
    return writePreviews(rt, [previewOf(await previewBase(rt), 'pay', orderId)], true);
  }
  const client = await rt.client();
  const order = await getOrder(client, orderId, { signal: rt.signal });
  const before = await paymentIds(rt, orderId);
  await confirmMoneyMove(rt, {
    action: 'charge',
    subject: `order ${orderId} (the customer's stored card)`,
    amount: typeof order.initial_amount === 'string' ? order.initial_amount : undefined,
    currency: typeof order.currency === 'string' ? order.currency : undefined,
  });
  const result = await sendChecked(client, {
    orderId,
    isOurs: (p) =>
      !before.has(p.id) && (p.kind === 'debit' || p.kind === 'preauthorization') && p.status === 'succeeded',
    send: () => payOrderWithCard(client, orderId, { signal: rt.signal }),
    signal: rt.signal,
  });
  await report(rt, result, (p) =>
    p?.kind === 'preauthorization'
      ? `Authorised ${money(p)} on order ${orderId} (payment ${p.id}); capture it with billing payments capture ${p.id}.`
      : `Charged ${money(p)} on order ${orderId}${p ? ` (payment ${p.id})` : ''}.`,
  );
}
