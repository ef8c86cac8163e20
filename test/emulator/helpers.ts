// Talking to a running emulator over real HTTP, as the CLI does.

import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { ownKeyHeader } from '../helpers/emulator.js';

export const TOKEN = LOCAL_EMULATOR.token;
export const LIMITED_TOKEN = LOCAL_EMULATOR.limitedToken;

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever came back
  body: any;
  headers: Headers;
}

export async function call(
  emulator: RunningEmulator,
  method: string,
  path: string,
  options: { token?: string | null; body?: unknown; rawBody?: string } = {},
): Promise<Answer> {
  // The control API takes this user's credential for the emulator (test/helpers/emulator.ts).
  const headers: Record<string, string> = {
    Accept: 'application/json',
    ...(path.startsWith('/__emulator/') ? ownKeyHeader(emulator.url) : {}),
  };
  const token = options.token === undefined ? TOKEN : options.token;
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${emulator.url}${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers };
}

export const v2 = (profileId: number, rest: string) => `/api/v2/profiles/${profileId}${rest}`;

export async function createCustomer(
  emulator: RunningEmulator,
  profileId = 1,
  fields: Record<string, unknown> = {},
): Promise<number> {
  const answer = await call(emulator, 'POST', v2(profileId, '/customers'), {
    body: { customer: { first_name: 'Test', last_name: 'Person', email: 'test@example.com', ...fields } },
  });
  if (answer.status !== 201) throw new Error(`customer not created: ${JSON.stringify(answer.body)}`);
  return answer.body.customer.id;
}

export async function createProduct(
  emulator: RunningEmulator,
  profileId = 1,
  fields: Record<string, unknown> = {},
): Promise<number> {
  const answer = await call(emulator, 'POST', v2(profileId, '/products'), {
    body: { product: { name: 'Widget', price: '10.00', currency: 'EUR', ...fields } },
  });
  if (answer.status !== 201) throw new Error(`product not created: ${JSON.stringify(answer.body)}`);
  return answer.body.product.id;
}

let invoiceCounter = 0;
export const nextInvoice = () => `T${Date.now().toString(36)}${++invoiceCounter}`;

/** The answer to creating a draft order of one product for a customer. */
export function postOrder(
  emulator: RunningEmulator,
  customer: number,
  product: number,
  profileId = 1,
): Promise<Answer> {
  return call(emulator, 'POST', v2(profileId, '/orders'), {
    body: {
      order: {
        currency: 'EUR',
        customer_id: customer,
        invoice_id: nextInvoice(),
        order_products: [{ product_id: product }],
      },
    },
  });
}

/** A draft order of one product at `price`, for a new customer; its id. */
export async function createOrder(emulator: RunningEmulator, price = '25.00'): Promise<number> {
  const customer = await createCustomer(emulator);
  const product = await createProduct(emulator, 1, { price });
  const answer = await postOrder(emulator, customer, product);
  if (answer.status !== 201) throw new Error(`order not created: ${JSON.stringify(answer.body)}`);
  return answer.body.order.id;
}
