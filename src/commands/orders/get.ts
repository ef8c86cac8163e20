// billing orders get: its description and its code.

import { getOrder } from '../../api/orders.js';
import { EXPANSION_NAMES } from '../../cli/kit/help-text.js';
import { writeSection } from '../../cli/kit/result.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { EXPANSIONS } from '../../domain/expand.js';
import { write, writeOne } from '../../format/index.js';
import { safeLine } from '../../format/terminal.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export const getVerb = verb({
  name: 'get',
  place: 20,
  summary: 'one order, with its payments (refunds, what is left to refund) and its next payment',
  args: [
    {
      name: '<id>',
      help: 'order id, or its invoice id (INV-000123; INV-0001* for those starting so)',
      key: 'order',
    },
  ],
  flags: [
    {
      flag: '--expand <names>',
      help: `with -o json: add ${EXPANSION_NAMES.order} under those keys`,
      values: EXPANSIONS.order,
      commaList: true,
    },
  ],
  examples: [
    'billing orders get 177',
    'billing orders get INV-000123',
    "billing orders get 'INV-00012*'",
    'billing orders get 177 --json | jq .status.value',
    'billing orders get 177 -o json --expand payments | jq ".payments[] | {id, left_to_refund}"',
  ],
  help:
    '\nAn id that is not a number is looked up as an invoice id by reading the pages of orders:\n' +
    'an exact match stops the reading. No exact match: the orders whose invoice id holds the\n' +
    'text (or starts with it, for TEXT*) are listed, exit 2; one only is shown. None: exit 5.\n' +
    '\nWith -o json it prints the order as the service sends it (one request). --expand adds\n' +
    'the payments under "payments" (each debit or capture with "refunded" and "left_to_refund")\n' +
    'and the next scheduled payment under "next_payment" (null: none); if one cannot be read,\n' +
    'the command fails (exit as for any request) rather than leave it out.\n',
  output: 'record',
  moves: 'none',
});

export default defineCommand(getVerb, get);

/**
 * The order as the service sends it, in one request (issue 2's contract); --expand
 * payments,next_payment adds them under those keys, and a failed read of one is the command's
 * error. The view for people shows the payments (refunds, what is left) and the next payment.
 */
export async function get(rt: Runtime, [id]: string[], flags: OptionsOf<typeof getVerb>): Promise<void> {
  const view = flags.expand === undefined ? undefined : await import('../../ops/orders/view.js');
  const wanted = view?.expansions('order', flags.expand);
  // Anything but a number is an invoice id (INV-7001, or INV-70* for those starting so).
  const orderId = await orderIdOf(rt, id);
  const client = await rt.client();
  const order = await getOrder(client, orderId, { signal: rt.signal });
  const data = async () => {
    const details = view && wanted ? await view.orderDetails(rt, client, order, wanted) : {};
    return { one: { ...order, ...details }, columns: 'order' as const };
  };
  const screen = async () => {
    const { chargeSentence, orderDetails } = await import('../../ops/orders/view.js');
    const details = await orderDetails(rt, client, order, new Set(EXPANSIONS.order), true);
    await writeOne(order, 'order', rt.output);
    if (details.payments) {
      await writeSection(rt, `Payments (${details.payments.length})`, details.payments, 'order_payment');
    }
    // The scheduled payment's row only when it is what will be charged; else what will happen.
    const charge = details.next_charge;
    const said = charge ? chargeSentence(order.id, charge) : undefined;
    if (details.next_payment && (charge?.state === 'due' || charge?.state === 'retry')) {
      await writeSection(rt, 'Next payment', [details.next_payment], 'scheduled_payment');
    }
    if (said) rt.io.stdout.write(`\n${safeLine(said)}\n`);
  };
  await write(rt.output, data, { screen });
}
