// docs/openapi.yaml (issue 19 §6): the interface as OpenAPI 3.1, held to the one route table
// (src/domain/routes.ts), served by the emulator; and the emulator as strict as it.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../src/domain/routes.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { answerProblem, openapiDoc } from '../helpers/openapi.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const fullPath = (route: { version: string; path: string }) => `/api/${route.version}${route.path}`;

interface Documented {
  operationId: string;
  'x-assumed'?: boolean;
  'x-decision'?: string;
  'x-root-key'?: string;
  tags?: string[];
  requestBody?: { required: boolean };
  responses: Record<string, unknown>;
}

/** The interface's operations, or (control) the emulator's own control API under its tag. */
function documented(control = false): Map<string, Documented> {
  const found = new Map<string, Documented>();
  for (const [path, item] of Object.entries(openapiDoc.paths as Record<string, Record<string, Documented>>)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation && (operation.tags?.includes('emulator-control') ?? false) === control)
        found.set(`${method.toUpperCase()} ${path}`, operation);
    }
  }
  return found;
}

describe('docs/openapi.yaml', () => {
  const doc = documented();

  it('is OpenAPI 3.1 with exactly the routes and methods of the route table', () => {
    expect(openapiDoc.openapi).toBe('3.1.0');
    const table = Object.values(routes).map((route) => `${route.method} ${fullPath(route)}`);
    expect([...doc.keys()].sort()).toEqual([...table].sort());
  });

  it('marks the same routes assumed, with the same decisions and root keys, as the table', () => {
    for (const route of Object.values(routes)) {
      const operation = doc.get(`${route.method} ${fullPath(route)}`) as Documented;
      expect(operation.operationId, route.name).toBe(route.name);
      expect(operation['x-assumed'] ?? false, route.name).toBe(route.assumed);
      expect(operation['x-decision'], route.name).toBe(route.decision);
      expect(operation['x-root-key'], route.name).toBe(route.rootKey);
      // A body route's body is required unless the table says it is optional.
      const required = route.rootKey === undefined ? undefined : !route.optionalBody;
      expect(operation.requestBody?.required, route.name).toBe(required);
    }
  });

  it('documents the control API behind startEmulator() under its own tag, without a token, each with its status codes and no catch-all', () => {
    const control = documented(true);
    expect([...control.keys()].sort()).toEqual(
      [
        'GET /__emulator/clock',
        'POST /__emulator/clock',
        'POST /__emulator/orders/{id}/status',
        'GET /__emulator/deliveries',
        'POST /__emulator/deliveries/{id}/redeliver',
        'GET /__emulator/outbox',
        'GET /__emulator/webhook-endpoints',
        'POST /__emulator/webhook-endpoints',
        'POST /__emulator/webhook-endpoints/remove',
        'GET /__emulator/faults',
        'POST /__emulator/faults',
        'POST /__emulator/apply',
        'POST /__emulator/reset',
      ].sort(),
    );
    for (const [name, operation] of control) {
      expect((operation as { security?: unknown[] }).security, name).toEqual([]);
      expect(Object.keys(operation.responses), name).not.toContain('default');
    }
    expect(openapiDoc.tags.map((t: { name: string }) => t.name)).toContain('emulator-control');
  });

  it('gives each body route the fields of the route table, no others (additionalProperties false), and no default answer', () => {
    const resolve = (schema: Record<string, unknown>): Record<string, unknown> =>
      typeof schema.$ref === 'string'
        ? openapiDoc.components.schemas[(schema.$ref as string).split('/').pop() as string]
        : schema;
    const names = (schema: Record<string, unknown>, prefix = ''): string[] => {
      const record = resolve(schema);
      expect(record.additionalProperties, prefix || 'record').toBe(false);
      return Object.entries(record.properties as Record<string, Record<string, unknown>>).flatMap(
        ([name, inner]) => {
          const path = prefix === '' ? name : `${prefix}.${name}`;
          const target = resolve(inner);
          if (target.type === 'object' && target.properties) return [path, ...names(target, path)];
          const items = target.items as Record<string, unknown> | undefined;
          if (target.type === 'array' && items && resolve(items).properties)
            return [path, ...names(items, `${path}[]`)];
          return [path];
        },
      );
    };
    for (const route of Object.values(routes)) {
      const operation = doc.get(`${route.method} ${fullPath(route)}`) as Documented & {
        requestBody?: { content: Record<string, { schema: Record<string, Record<string, unknown>> }> };
      };
      expect(Object.keys(operation.responses), route.name).not.toContain('default');
      if (!route.rootKey) continue;
      const schema = operation.requestBody?.content['application/json']?.schema as Record<string, unknown>;
      expect(schema.additionalProperties, route.name).toBe(false);
      const record = (schema.properties as Record<string, Record<string, unknown>>)[route.rootKey] as Record<
        string,
        unknown
      >;
      expect(names(record).sort(), route.name).toEqual([...(route.fields ?? [])].sort());
    }
  });

  it("gives the status codes of the interface's error table", () => {
    const statuses = new Set([...doc.values()].flatMap((operation) => Object.keys(operation.responses)));
    for (const status of ['200', '201', '204', '400', '401', '403', '404', '409', '422', '502']) {
      expect(statuses, status).toContain(status);
    }
    for (const operation of doc.values()) expect(Object.keys(operation.responses)).toContain('401');
  });

  it('catches an answer that does not match it (the check of the test suite can fail)', () => {
    const order = { order: { id: '7' } };
    expect(answerProblem('GET', '/api/v2/profiles/1/orders/7', 200, order)).toMatch(
      /must be integer|required/,
    );
    expect(answerProblem('DELETE', '/api/v2/profiles/1/products/7', 204, { deleted: true })).toMatch(
      /has a body/,
    );
    expect(answerProblem('GET', '/api/v2/profiles/1/orders/7', 404, { error: { message: 'x' } })).toBeNull();
  });
});

describe('the emulator and docs/openapi.yaml', () => {
  let t: TestEmulator;
  const P = '/api/v2/profiles/1';
  beforeAll(async () => {
    t = await startTestEmulator({ seed: 'demo' });
  });
  afterAll(() => t.close());

  it('serves the document at /openapi.yaml, without a token', async () => {
    const res = await fetch(`${t.url}/openapi.yaml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/yaml/);
    expect(await res.text()).toBe(
      readFileSync(resolve(import.meta.dirname, '../../docs/openapi.yaml'), 'utf8'),
    );
  });

  it('answers 400 to a body without its root key, {} included, and changes nothing', async () => {
    const orders = (await emulatorApi(t.url, 'GET', `${P}/orders?items=100`)).body.orders;
    const debit = await firstDebit(orders);
    for (const body of [{}, { foo: 1 }, { refund: { amount: '1.00' } }, []]) {
      const refused = await emulatorApi(t.url, 'POST', `${P}/payments/${debit.id}/refund`, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.message).toMatch(/root key "payment"/);
    }
    const payments = await emulatorApi(t.url, 'GET', `${P}/orders/${debit.order_id}/payments`);
    expect(payments.body.payments.filter((p: { kind: string }) => p.kind === 'refund')).toEqual([]);

    const paused = orders.find((o: { status: { value: string } }) => o.status.value === 'paused');
    const resume = await emulatorApi(t.url, 'POST', `${P}/orders/${paused.id}/resume`, { foo: 1 });
    expect(resume.status).toBe(400);
    expect((await emulatorApi(t.url, 'GET', `${P}/orders/${paused.id}`)).body.order.status.value).toBe(
      'paused',
    );
    // An optional body may be left out entirely.
    expect((await emulatorApi(t.url, 'POST', `${P}/orders/${paused.id}/resume`)).status).toBe(200);

    for (const path of ['/orders', '/customers', '/products']) {
      expect((await emulatorApi(t.url, 'POST', `${P}${path}`, {})).status, path).toBe(400);
      expect((await emulatorApi(t.url, 'POST', `${P}${path}`)).status, path).toBe(400);
    }
  });

  it('takes integers, not digit strings, for integer fields, and a number for fee_amount', async () => {
    let invoice = 0;
    const order = (customer: unknown, product: unknown) => ({
      order: {
        currency: 'EUR',
        invoice_id: `OA-INT-${++invoice}`,
        customer_id: customer,
        order_products: [{ product_id: product }],
      },
    });
    const digits = await emulatorApi(t.url, 'POST', `${P}/orders`, order('1', 1));
    expect(digits.status).toBe(422);
    expect(digits.body.error.details).toEqual([
      { field: 'customer_id', message: 'customer_id must be a positive integer' },
    ]);
    expect((await emulatorApi(t.url, 'POST', `${P}/orders`, order(1, '1'))).status).toBe(422);
    expect((await emulatorApi(t.url, 'POST', `${P}/orders`, order(1, 1))).status).toBe(201);

    const subscription = (fee: unknown) => ({
      order: {
        currency: 'EUR',
        customer_id: 1,
        recurring_collection_interval: 'MONTH',
        start_date: '01/01/2027 09:00',
        order_product: { product_id: 2, ...(fee === undefined ? {} : { fee_amount: fee }) },
      },
    });
    for (const fee of [null, '1.50', 'x', -1]) {
      const refused = await emulatorApi(
        t.url,
        'POST',
        '/api/v1/orders/create_subscription_order',
        subscription(fee),
      );
      expect(refused.status, JSON.stringify(fee)).toBe(422);
      expect(refused.body.error.details.map((d: { field: string }) => d.field)).toEqual([
        'order_product.fee_amount',
      ]);
    }
    const made = await emulatorApi(
      t.url,
      'POST',
      '/api/v1/orders/create_subscription_order',
      subscription(1.5),
    );
    expect(made.status).toBe(201);
  });

  it('gives strings, never null, where the interface types the order customer fields as strings; no country but a code', async () => {
    const customer = await emulatorApi(t.url, 'POST', `${P}/customers`, {
      customer: { first_name: 'No', last_name: 'Address', email: 'no@example.com' },
    });
    const made = await emulatorApi(t.url, 'POST', `${P}/orders`, {
      order: {
        currency: 'EUR',
        invoice_id: 'OA-STRINGS',
        customer_id: customer.body.customer.id,
        order_products: [{ product_id: 1 }],
      },
    });
    const onOrder = made.body.order.customer;
    expect(onOrder.merchant_customer_id).toBe('');
    // A country is a two-letter code or absent, never "" (issue 27 §5).
    expect(onOrder).not.toHaveProperty('country');
    expect(onOrder).not.toHaveProperty('country_name');
    expect(onOrder.state).toBeNull();
  });

  async function firstDebit(orders: { id: number; status: { value: string } }[]) {
    for (const order of orders.filter((o) => o.status.value === 'complete')) {
      const payments = (await emulatorApi(t.url, 'GET', `${P}/orders/${order.id}/payments`)).body.payments;
      const debit = payments.find(
        (p: { kind: string; status: string }) => p.kind === 'debit' && p.status === 'succeeded',
      );
      if (debit) return debit;
    }
    throw new Error('the demo seed has no complete order with a debit');
  }
});
