// billing orders create: its code; its description is ./create.ts.

import { createOrderOnce } from '../../api/orders.js';
import type { OrderInput } from '../../api/types.js';
import { readBodyFile } from '../../cli/kit/body.js';
import { ask, CURRENCY_QUESTION, CUSTOMER_QUESTION, flagOrAsk } from '../../cli/kit/prompt.js';
import { writeRecord } from '../../cli/kit/result.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { orderStatus } from '../../domain/orders.js';
import { checkOrderLinks } from '../../ops/links/service.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import type { createVerb } from './create.js';

type CreateFlags = OptionsOf<typeof createVerb>;

export async function create(rt: Runtime, _args: string[], flags: CreateFlags): Promise<void> {
  const input = flags.file
    ? ((await readBodyFile(rt, flags.file, 'order')) as unknown as OrderInput)
    : await orderFromFlags(rt, flags);
  const client = await rt.client();
  const created = await createOrderOnce(client, input, { v1: flags.v1, signal: rt.signal });
  if (created.recovered) {
    rt.info('warning: the service answered with an error, but the order had been created; not sent again');
  }
  await checkOrderLinks(rt, created.order.id, { checkout: created.checkout });
  await writeRecord(rt, created.order, 'order', { checkout: created.checkout });
  rt.info(`Created order ${created.order.id} (${orderStatus(created.order) || 'status unknown'}).`);
}

async function orderFromFlags(rt: Runtime, flags: CreateFlags): Promise<OrderInput> {
  const customer = await flagOrAsk(rt, flags.customer, CUSTOMER_QUESTION);
  const products =
    flags.product.length > 0
      ? flags.product.map(parse.productSpec)
      : [await ask(rt, { flag: '--product', message: 'Product id[:qty]', parse: parse.productSpec })];
  const currency = await flagOrAsk(rt, flags.currency, CURRENCY_QUESTION);
  const invoiceId = await flagOrAsk(rt, flags.invoiceId, {
    flag: '--invoice-id',
    message: 'Invoice id (your own unique id)',
    parse: (v) => parse.text('--invoice-id', v),
  });
  const input: OrderInput = {
    currency,
    customer_id: customer,
    invoice_id: invoiceId,
    create_checkout: Boolean(flags.checkout),
    order_products: products,
  };
  if (flags.description !== undefined) input.description = flags.description;
  if (flags.redirectUrl !== undefined) input.redirect_url = parse.url('--redirect-url', flags.redirectUrl);
  if (flags.failedRedirectUrl !== undefined) {
    input.failed_redirect_url = parse.url('--failed-redirect-url', flags.failedRedirectUrl);
  }
  return input;
}
