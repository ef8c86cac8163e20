// Shared by the checkout and payment-link tests: records made through the emulator's API,
// and the browser side of the gateway spoken with fetch (a form post, as a browser sends it).

import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { spawnCli } from '../helpers/cli.js';
import { emulatorApi, type TestEmulator } from '../helpers/emulator.js';
import { useEmulator } from '../helpers/suite.js';

const P = `/api/v2/profiles/${LOCAL_EMULATOR.profileId}`;

export const CARDS = {
  approve: '4200000000000000',
  soft: '4000000000000002',
  hard: '4000000000000069',
  threeDs: '4000000000003220',
} as const;

export async function makeCustomer(
  url: string,
  fields: { email?: string | null; phone?: string | null } = {},
): Promise<number> {
  const customer: Record<string, unknown> = { first_name: 'Jane', last_name: 'Doe' };
  const email = fields.email === undefined ? 'jane@example.com' : fields.email;
  const phone = fields.phone === undefined ? '+4915112345678' : fields.phone;
  if (email !== null) customer.email = email;
  if (phone !== null) customer.phone = phone;
  const answer = await emulatorApi(url, 'POST', `${P}/customers`, { customer });
  if (answer.status !== 201) throw new Error(`customer: ${JSON.stringify(answer.body)}`);
  return answer.body.customer.id;
}

export async function makeProduct(url: string): Promise<number> {
  const answer = await emulatorApi(url, 'POST', `${P}/products`, {
    product: { name: 'Widget', price: '19.90', currency: 'EUR' },
  });
  if (answer.status !== 201) throw new Error(`product: ${JSON.stringify(answer.body)}`);
  return answer.body.product.id;
}

let invoices = 0;

/** A v2 order; its checkout when `checkout` is set. */
export async function makeOrder(
  url: string,
  o: {
    customer: number;
    product: number;
    checkout?: boolean;
    redirectUrl?: string;
    failedRedirectUrl?: string;
  },
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary fields of the answers
): Promise<{ order: any; checkout: any }> {
  invoices += 1;
  const answer = await emulatorApi(url, 'POST', `${P}/orders`, {
    order: {
      currency: 'EUR',
      customer_id: o.customer,
      invoice_id: `T${process.pid}-${invoices}`,
      order_products: [{ product_id: o.product }],
      create_checkout: Boolean(o.checkout),
      ...(o.redirectUrl ? { redirect_url: o.redirectUrl } : {}),
      ...(o.failedRedirectUrl ? { failed_redirect_url: o.failedRedirectUrl } : {}),
    },
  });
  if (answer.status !== 201) throw new Error(`order: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export async function orderStatus(url: string, id: number): Promise<string> {
  return (await emulatorApi(url, 'GET', `${P}/orders/${id}`)).body.order.status.value;
}

export function api(url: string, method: string, path: string, body?: unknown) {
  return emulatorApi(url, method, `${P}${path}`, body);
}

/** Posts the widget's form fields to a form_action (or any gateway path), not following redirects. */
export async function postForm(
  target: string,
  fields: Record<string, string>,
): Promise<{ status: number; location: string | null; html: string }> {
  const res = await fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

export function card(number: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'card.number': number,
    'card.holder': 'Jane Doe',
    'card.expiry': '12/39',
    'card.cvv': '123',
    ...extra,
  };
}

/** A long-running `billing …` (like checkout open): its output so far, a wait for a line, and Ctrl-C. */
export interface RunningCli {
  stdout(): string;
  stderr(): string;
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Sends SIGINT (Ctrl-C) and resolves with the exit code. */
  interrupt(): Promise<number | null>;
  kill(): void;
}

export function startCli(args: string[], env: Record<string, string | undefined>): RunningCli {
  const started = spawnCli(args, env);
  const { child } = started;
  const exited = started.done.then((end) => end.code);
  return {
    stdout: started.stdout,
    stderr: started.stderr,
    async waitFor(stream, pattern, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const out = started.stdout();
        const err = started.stderr();
        const match = pattern.exec(stream === 'stdout' ? out : err);
        if (match) return match;
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`no ${pattern} on ${stream}; stdout: ${out}\nstderr: ${err}`);
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    interrupt() {
      child.kill('SIGINT');
      return exited;
    },
    kill() {
      child.kill('SIGKILL');
    },
  };
}

export type Env = Record<string, string | undefined>;

/** The emulator of the checkout and links commands' tests, its gateway in the CLI's environment, one customer and one product. */
export interface Shop {
  t: TestEmulator;
  env: Env;
  customer: number;
  product: number;
}

/** Starts a Shop before the enclosing file's (or block's) tests and hands it to `take`; closes it after them. */
export function useShop(take: (shop: Shop) => void): void {
  useEmulator({}, async (t) => {
    const env = t.env({ BILLING_GATEWAY_URL: `${t.url}/gateway` });
    take({ t, env, customer: await makeCustomer(t.url), product: await makeProduct(t.url) });
  });
}
