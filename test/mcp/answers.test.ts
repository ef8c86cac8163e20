// Issue 28 §6: an assistant that reads little. The built `billing mcp` against the demo
// emulator, driven by the SDK's own client: every read tool's default answer is under 8,000
// characters (text and structured content together), lists come a page of at most 20 with a
// cursor, payments with their sum per currency, and every enumerated argument is an enum of
// the list the CLI checks its flags against.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPANSIONS } from '../../src/domain/expand.js';
import { ORDER_STATUSES, ORDER_TYPES } from '../../src/domain/orders.js';
import { PAYMENT_KINDS, PAYMENT_STATUSES } from '../../src/domain/payments.js';
import { runCli } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { startMcp } from '../helpers/mcp.js';

let emu: TestEmulator;
let client: Client;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
  client = (await startMcp(['mcp'], emu.env())).client;
});
afterAll(async () => {
  await client?.close().catch(() => {});
  await emu.close();
});

// biome-ignore lint/suspicious/noExplicitAny: tool results are whatever the server sent
type Any = any;
const call = (name: string, args: Record<string, unknown> = {}): Promise<Any> =>
  client.callTool({ name, arguments: args });

/** What the assistant reads: the text content and the structured content. */
function size(result: Any): number {
  const text = (result.content as { text?: string }[]).reduce((n, c) => n + (c.text?.length ?? 0), 0);
  return text + JSON.stringify(result.structuredContent ?? {}).length;
}

const JAMES = 'james.obrien@example.com';

describe('each read tool answers under 8,000 characters by default', () => {
  const sizes: Record<string, number> = {};
  afterAll(() => {
    // The figures of the closing note (issue 28): one line a tool.
    console.log(`MCP answer sizes (text + structured): ${JSON.stringify(sizes)}`);
  });

  it('search, list_orders, get_order, order_timeline, get_customer, list_payments, get_payment', async () => {
    const orders = (await emulatorApi(emu.url, 'GET', '/api/v2/profiles/1/orders?items=100')).body.orders;
    const subscription = orders.find(
      (o: Any) => o.order_type.value === 'subscription' && o.status.value === 'active',
    );
    const payments = (
      await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${subscription.id}/payments`)
    ).body.payments;
    const calls: [string, Record<string, unknown>][] = [
      ['search', { text: 'obrien' }],
      ['list_orders', {}],
      ['list_orders', { status: ['failed', 'suspended'] }],
      ['get_order', { order: String(subscription.id) }],
      ['order_timeline', { order_id: subscription.id }],
      ['get_customer', { customer_id: subscription.customer_id }],
      ['list_payments', { email: JAMES }],
      ['list_payments', {}],
      ['get_payment', { payment_id: payments[0].id }],
    ];
    for (const [name, args] of calls) {
      const result = await call(name, args);
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      const key = `${name}${Object.keys(args).length ? ` ${JSON.stringify(args)}` : ''}`;
      sizes[key] = size(result);
      expect(sizes[key], key).toBeLessThan(8_000);
    }
    // Asked for more: the customer's payments too (a page of each), for the figures only.
    const more = { customer_id: subscription.customer_id, expand: ['orders', 'payments'] };
    sizes[`get_customer ${JSON.stringify(more)}`] = size(await call('get_customer', more));
  });
});

describe('compact records, pages and cursors, sums, and more when asked', () => {
  it('list_orders: the table fields, 20 a page, the next page by its cursor, none repeated', async () => {
    const first = await call('list_orders', {});
    const page1 = first.structuredContent;
    expect(page1.records).toHaveLength(20);
    expect(Object.keys(page1.records[0]).sort()).toEqual(
      ['amount', 'created', 'currency', 'customer', 'id', 'invoice_id', 'status', 'type'].sort(),
    );
    expect(page1.next_cursor).toBe('20');
    const second = (await call('list_orders', { cursor: page1.next_cursor })).structuredContent;
    expect(second.records).toHaveLength(20);
    const cli = await runCli(['orders', 'list', '--items', '40', '-o', 'json'], { env: emu.env() });
    const ids = (JSON.parse(cli.stdout) as Any[]).map((o) => o.id);
    expect([...page1.records, ...second.records].map((r: Any) => r.id)).toEqual(ids);

    const full = (await call('list_orders', { full: true })).structuredContent;
    expect(full.records[0]).toEqual((JSON.parse(cli.stdout) as Any[])[0]);
    const chosen = (await call('list_orders', { fields: ['customer.email', 'status.value'] }))
      .structuredContent;
    expect(Object.keys(chosen.records[0]).sort()).toEqual(['customer.email', 'id', 'status.value']);

    const bad = await call('list_orders', { cursor: 'abc' });
    expect(bad.isError).toBe(true);
    expect(bad.content[0].text).toContain('cursor "abc" is not one this server gave');
  });

  it('list_payments of a customer this month: a sum per currency over every payment that matched', async () => {
    const result = (await call('list_payments', { email: JAMES, since: 'this-month' })).structuredContent;
    const cli = await runCli(['payments', 'list', '--email', JAMES, '--since', 'this-month', '-o', 'json'], {
      env: emu.env(),
    });
    expect(cli.code, cli.stderr).toBe(0);
    const all = JSON.parse(cli.stdout) as Any[];
    expect(result.count).toBe(all.length);
    const cents = (kinds: string[], currency: string) =>
      all
        .filter((p) => p.status === 'succeeded' && kinds.includes(p.kind) && p.currency === currency)
        .reduce((n, p) => n + Math.round(Number(p.amount) * 100), 0);
    for (const [currency, sum] of Object.entries(result.sum as Record<string, Any>)) {
      const paid = cents(['debit', 'capture'], currency);
      const refunded = cents(['refund'], currency);
      expect(sum).toEqual({
        paid: (paid / 100).toFixed(2),
        refunded: (refunded / 100).toFixed(2),
        net: ((paid - refunded) / 100).toFixed(2),
      });
    }
    expect(Object.keys(result.sum).length).toBeGreaterThan(0);
  });
});

describe("every enumerated argument is an enum of the CLI's own list", () => {
  it('the schemas of list_orders, list_payments, get_order and get_customer', async () => {
    const { tools } = await client.listTools();
    const schema = (tool: string, arg: string) => {
      const property = tools.find((t) => t.name === tool)?.inputSchema.properties?.[arg] as Any;
      return property?.items?.enum ?? property?.enum;
    };
    expect(schema('list_orders', 'status')).toEqual([...ORDER_STATUSES]);
    expect(schema('list_orders', 'type')).toEqual(Object.keys(ORDER_TYPES));
    expect(schema('list_payments', 'status')).toEqual([...PAYMENT_STATUSES]);
    expect(schema('list_payments', 'kind')).toEqual([...PAYMENT_KINDS]);
    expect(schema('get_order', 'expand')).toEqual([...EXPANSIONS.order]);
    expect(schema('get_customer', 'expand')).toEqual([...EXPANSIONS.customer]);
    // "new" was named in the description of list_orders and refused by the command.
    for (const tool of tools) expect(tool.description, tool.name).not.toMatch(/\bnew\b/);
    const refused = await call('list_orders', { status: ['new'] });
    expect(refused.isError).toBe(true);
  });
});

describe('list_orders takes the filters of orders list (issue 29: made from its description)', () => {
  it('every filter flag of billing orders list --help is an argument, and filters as the command does', async () => {
    const help = await runCli(['orders', 'list', '--help'], { env: emu.env() });
    // --total is what a list adds up to, not a filter (issue 37).
    const paging = ['--page', '--items', '--all', '--limit', '--total', '--concurrency', '--help'];
    const own = help.stdout.split(/^Inherited options/m)[0] ?? '';
    const flags = [...own.matchAll(/^ {2}(--[\w-]+)/gm)]
      .map((m) => m[1] as string)
      .filter((flag) => !paging.includes(flag));
    expect(flags).toContain('--by-status-date');
    const { tools } = await client.listTools();
    const properties = Object.keys(tools.find((t) => t.name === 'list_orders')?.inputSchema.properties ?? {});
    for (const flag of flags) expect(properties, flag).toContain(flag.slice(2).replace(/-/g, '_'));
    // --by-status-date was missing from the tool: the same orders as the command's.
    const cli = await runCli(
      ['orders', 'list', '--since', '30d', '--by-status-date', '--customer', '2', '-o', 'json'],
      {
        env: emu.env(),
      },
    );
    expect(cli.code, cli.stderr).toBe(0);
    const ids = (JSON.parse(cli.stdout) as { id: number }[]).map((o) => o.id);
    const tool = await call('list_orders', {
      since: '30d',
      by_status_date: true,
      customer: '2',
      fields: ['id'],
    });
    expect(tool.isError ?? false, JSON.stringify(tool.content)).toBe(false);
    expect((tool.structuredContent.records as { id: number }[]).map((o) => o.id)).toEqual(ids.slice(0, 20));
  });
});

describe('search takes the filters of orders list too (issue 29: its command takes them)', () => {
  it('every filter argument of list_orders is one of search, and keeps the orders the command keeps', async () => {
    const { tools } = await client.listTools();
    const propertiesOf = (name: string) =>
      Object.keys(tools.find((t) => t.name === name)?.inputSchema.properties ?? {});
    const own = ['full', 'fields', 'cursor', 'page', 'items', 'all', 'limit', 'concurrency'];
    const filters = propertiesOf('list_orders').filter((p) => !own.includes(p));
    expect(filters).toContain('status');
    expect(propertiesOf('search')).toEqual(expect.arrayContaining(filters));
    const cli = await runCli(['search', 'brien', '--status', 'active', '-o', 'json'], { env: emu.env() });
    expect(cli.code, cli.stderr).toBe(0);
    const expected = (JSON.parse(cli.stdout) as { record: { id: number } }[]).map((m) => m.record.id);
    expect(expected.length).toBeGreaterThan(0);
    const tool = await call('search', { text: 'brien', status: ['active'], fields: ['id', 'status'] });
    expect(tool.isError ?? false, JSON.stringify(tool.content)).toBe(false);
    const records = tool.structuredContent.records as {
      kind: string;
      record: { id: number; status: unknown };
    }[];
    expect(records.every((m) => m.kind === 'order')).toBe(true);
    expect(records.map((m) => m.record.id)).toEqual(expected.slice(0, 10));
  });
});
