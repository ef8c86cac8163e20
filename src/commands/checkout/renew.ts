import { getOrder, renewCheckout } from '../../api/orders.js';
import type { Checkout } from '../../api/types.js';
import { ORDER_ARG } from '../../cli/kit/help-text.js';
import { writeRecord } from '../../cli/kit/result.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { orderStatus } from '../../domain/orders.js';
import { textColumn as column } from '../../format/index.js';
import { formatTimestamp } from '../../format/text.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { CHECKOUT_VALIDITY_MS, gatewayTime, type Live, left, liveCheckout } from './live.js';

export const renewVerb = verb({
  name: 'renew',
  place: 10,
  summary: 'make a new checkout for the order (a checkout is valid 25 minutes); prints its id and expiry',
  args: [{ name: '<order>', help: ORDER_ARG }],
  examples: ['billing checkout renew 1042', 'billing checkout renew 1042 --json | jq -r .checkout.id'],
  output: 'record',
  moves: 'data',
});

export default defineCommand(renewVerb, renew);

export async function renew(rt: Runtime, [id]: string[]): Promise<void> {
  const orderId = await orderIdOf(rt, id);
  const client = await rt.client();
  const { checkout } = await renewCheckout(client, orderId, { signal: rt.signal });
  const live = liveCheckout(checkout);
  const order = await getOrder(client, orderId, { signal: rt.signal });
  const status = orderStatus(order);
  const row = {
    order_id: orderId,
    status,
    checkout_id: checkout.id,
    expires_at: expiresAtText(checkout, live),
  };
  await writeRecord(rt, order, 'order', { checkout }, { rows: { list: [row], columns: ROW_COLUMNS } });
  rt.info(
    `Renewed the checkout of order ${orderId}: ${checkout.id}, valid for ${left(live)} (until ${formatTimestamp(row.expires_at)}). Order ${orderId} is ${status}.`,
  );
}

const ROW_COLUMNS = [
  column('order_id', 'Order'),
  column('status', 'Status'),
  column('checkout_id', 'Checkout'),
  column('expires_at', 'Expires'),
];

function expiresAtText(checkout: Checkout, live: Live): string {
  if (typeof checkout.expires_at === 'string') return checkout.expires_at;
  const created = gatewayTime(checkout.timestamp);
  return new Date(created === undefined ? live.expiresAtMs : created + CHECKOUT_VALIDITY_MS).toISOString();
}
