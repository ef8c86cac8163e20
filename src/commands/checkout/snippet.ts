import { getOrder, renewCheckout } from '../../api/orders.js';
import { ORDER_ARG } from '../../cli/kit/help-text.js';
import { writeRecord } from '../../cli/kit/result.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { orderStatus } from '../../domain/orders.js';
import { BillingError, EXIT } from '../../errors.js';
import { safeText } from '../../format/terminal.js';
import { checkedLink } from '../../ops/links/service.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { BRANDS } from './brands.js';
import {
  brandList,
  gateway,
  type Live,
  left,
  liveCheckout,
  PAYABLE,
  readCurrent,
  snippetHtml,
} from './live.js';

export const snippetVerb = verb({
  name: 'snippet',
  place: 20,
  summary: "the HTML to put on the merchant's page: the widget script (with integrity) and the form",
  args: [{ name: '<order>', help: ORDER_ARG }],
  flags: [BRANDS, { flag: '--renew', help: 'make a new checkout first (else the current one is used)' }],
  examples: [
    'billing checkout snippet 1042',
    'billing checkout snippet 1042 --renew --brands "VISA MASTER AMEX" > form.html',
  ],
  help:
    '\nThe current checkout is read with GET /orders/{id}/custom_checkout, a path the interface\n' +
    'document does not show; where the service lacks it, use --renew.\n',
  output: 'value',
  moves: 'data',
});

export default defineCommand(snippetVerb, snippet);

export async function snippet(
  rt: Runtime,
  [id]: string[],
  flags: OptionsOf<typeof snippetVerb>,
): Promise<void> {
  const orderId = await orderIdOf(rt, id);
  const brands = brandList(flags.brands);
  const gatewayUrl = await gateway(rt);
  const client = await rt.client();
  const order = await getOrder(client, orderId, { signal: rt.signal });
  const status = orderStatus(order);
  // A new checkout is offered only where it can be paid; --renew on a complete order is refused.
  const renewable = PAYABLE.includes(status);
  let live: Live | null;
  if (flags.renew) {
    live = liveCheckout((await renewCheckout(client, orderId, { signal: rt.signal })).checkout);
  } else {
    live = await readCurrent(rt, orderId, { hint: true });
    if (!live) {
      throw new BillingError('not_found', EXIT.notFound, `order ${orderId} has no checkout yet`, {
        hint: renewable
          ? `make one with: billing checkout snippet ${orderId} --renew`
          : `order ${orderId} is ${status}: there is nothing to pay, so no checkout can be made`,
      });
    }
  }
  await checkedLink(rt, 'checkout.form_action', live.checkout.form_action);
  const html = snippetHtml(gatewayUrl, live.checkout, brands);
  await writeRecord(
    rt,
    order,
    'order',
    { checkout: live.checkout, snippet: html },
    { rows: () => rt.io.stdout.write(safeText(html)) },
  );
  const what = flags.renew ? 'New checkout' : 'Checkout';
  if (live.expiresAtMs <= Date.now()) {
    const next = renewable ? '--renew makes a new one' : `no new one can be made: there is nothing to pay`;
    rt.info(
      `warning: checkout ${live.checkout.id} of order ${orderId} has expired; ${next}. Order ${orderId} is ${status}.`,
    );
  } else {
    rt.info(
      `${what} ${live.checkout.id} of order ${orderId}, valid for ${left(live)}. Order ${orderId} is ${status}.`,
    );
  }
}
