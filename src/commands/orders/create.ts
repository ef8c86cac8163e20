// billing orders create: its description and its code.

import { createOrderOnce } from '../../api/orders.js';
import type { OrderInput } from '../../api/types.js';
import { readBodyFile } from '../../cli/kit/body.js';
import { ask, CURRENCY_QUESTION, CUSTOMER_QUESTION, flagOrAsk } from '../../cli/kit/prompt.js';
import { writeRecord } from '../../cli/kit/result.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { collect, defineCommand, verb } from '../../cli/kit/verb.js';
import { orderStatus } from '../../domain/orders.js';
import { checkOrderLinks } from '../../ops/links/service.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export const createVerb = verb({
  name: 'create',
  place: 40,
  summary: 'create an order (v2; --v1 uses create_single_order); asks on a terminal for what is missing',
  flags: [
    { flag: '--customer <id>', help: 'customer id' },
    {
      flag: '--product <id[:qty]>',
      help: 'product id and quantity; repeat for more lines',
      parse: collect,
      default: [] as string[],
    },
    { flag: '--currency <code>', help: 'three-letter currency code' },
    { flag: '--invoice-id <id>', help: 'your own unique id of the order (about 10 letters and digits)' },
    { flag: '--description <text>', help: 'description' },
    { flag: '--checkout', help: 'also create a checkout for the payment form' },
    { flag: '--redirect-url <url>', help: 'where the customer lands after an approved payment' },
    { flag: '--failed-redirect-url <url>', help: 'where the customer lands after a declined payment' },
    { flag: '--file <path>', help: 'a JSON body with its root key "order" ("-" for stdin)' },
    { flag: '--v1', help: 'use the version 1 create_single_order endpoint' },
  ],
  examples: [
    'billing orders create --customer 3 --product 5:2 --currency EUR --invoice-id INV0001',
    'billing orders create --customer 3 --product 5 --currency EUR --invoice-id INV0002 --checkout --redirect-url https://shop.example/ok',
    'billing orders create --file order.json',
  ],
  output: 'record',
  moves: 'data',
});

export default defineCommand(createVerb, create);

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
