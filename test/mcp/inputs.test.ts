// Issue 29: every MCP tool's input is made from the description of the command it runs. The
// built `billing mcp`, every family allowed, lists its tools over stdio as a client sees them;
// each names its commands (`_meta`), and each argument of its schema must be a flag of that
// command's `--help` (snake_case of the flag) or its positional argument, with the same enum
// values as the description's list (src/domain) — so a hand-written or drifted argument fails.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describedCommands } from '../../scripts/commands-reference.js';
import { flagsOf, type VerbSpec } from '../../src/cli/kit/verb.js';
import { argKey, flagKey } from '../../src/mcp/flags.js';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';
import { startMcp } from '../helpers/mcp.js';

/** The tool's own arguments: how much an answer holds, a write's request id, which link to send. */
const TOOL_ONLY = ['full', 'fields', 'cursor', 'request_id', 'channel'];

let emu: TestEmulator;
let client: Client;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
  const allow = [
    '--allow',
    'refunds,captures,links,lifecycle',
    '--max-refund',
    'EUR:5.00',
    '--max-total',
    'EUR:8.00',
  ];
  client = (await startMcp(['mcp', ...allow], emu.env())).client;
});
afterAll(async () => {
  await client?.close().catch(() => {});
  await emu?.close();
});

/** The description of `billing PATH` ("orders get", "search"), from the one walk of the descriptions. */
async function descriptionOf(path: string): Promise<VerbSpec> {
  const found = (await describedCommands()).find((c) => c.path.join(' ') === path);
  if (!found) throw new Error(`no command "billing ${path}"`);
  return found.verb;
}

// biome-ignore lint/suspicious/noExplicitAny: a JSON schema as the server listed it
type Schema = any;
const enumOf = (property: Schema): unknown => property?.items?.enum ?? property?.enum;

describe("each MCP tool's input is its command's (issue 29)", () => {
  it('every argument of every tool is a flag or the argument of the command it runs, with the same values', async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(14);
    const checked: string[] = [];
    // The first command's --help is the built CLI's output, the others main() run here
    // (test/helpers/in-process.ts): what is read is the text of each command's help.
    let helps = 0;
    for (const tool of tools) {
      const commands = tool._meta?.['billing/commands'] as string[] | undefined;
      expect(commands, `${tool.name} names the commands it runs`).toBeInstanceOf(Array);
      expect(commands?.length, tool.name).toBeGreaterThan(0);
      const properties = Object.entries((tool.inputSchema.properties ?? {}) as Record<string, Schema>);
      for (const path of commands ?? []) {
        const description = await descriptionOf(path);
        const help = await (helps++ === 0 ? runCli : runInProcess)([...path.split(' '), '--help'], {
          env: emu.env(),
        });
        expect(help.code, help.stderr).toBe(0);
        const usage = help.stdout.split('\n')[0] ?? '';
        const options = new Set(
          [
            ...(help.stdout.split(/^Inherited options/m)[0] ?? '').matchAll(
              /^ {2}(?:-\w, )?--(?:no-)?([\w-]+)/gm,
            ),
          ].map((m) => (m[1] as string).replace(/-/g, '_')),
        );
        for (const [name, property] of properties) {
          if (TOOL_ONLY.includes(name)) continue;
          const where = `${tool.name}.${name} (billing ${path})`;
          const flag = flagsOf(description).find((f) => flagKey(f) === name);
          const arg = (description.args ?? []).find((a) => argKey(a) === name);
          expect(flag ?? arg, `${where} is neither a flag nor an argument of the command`).toBeDefined();
          if (flag) {
            expect(options.has(name), `${where}: --help lists its flag`).toBe(true);
            expect(enumOf(property), `${where}: the flag's values`).toEqual(
              flag.values ? [...flag.values] : undefined,
            );
          } else if (arg) {
            expect(usage, `${where}: --help's usage has the argument`).toContain(arg.name);
            expect(property.type, `${where}: an id is a whole number`).toBe(arg.id ? 'integer' : 'string');
            expect(enumOf(property), `${where}: the argument's values`).toEqual(
              arg.values ? [...arg.values] : undefined,
            );
          }
          checked.push(`${tool.name}.${name}`);
        }
      }
    }
    // The check reached the tools' arguments, enums among them.
    for (const seen of [
      'list_payments.status',
      'get_order.expand',
      'refund_payment.amount',
      'pause_order.order_id',
    ]) {
      expect(checked).toContain(seen);
    }
  });

  // The commands' -o json, the reference a tool is held to, run in-process; each is checked as a
  // process in its own file (test/commands/).
  it('list_payments takes --order as the command does: an invoice id too, the same payments', async () => {
    const orders = (await runInProcess(['orders', 'list', '-o', 'json'], { env: emu.env() })).stdout;
    const invoice = (JSON.parse(orders) as { merchant_invoice_id?: string }[]).find(
      (o) => o.merchant_invoice_id,
    )?.merchant_invoice_id;
    expect(invoice, 'an order with an invoice id').toBeDefined();
    const cli = await runInProcess(['payments', 'list', '--order', String(invoice), '-o', 'json'], {
      env: emu.env(),
    });
    expect(cli.code, cli.stderr).toBe(0);
    const result = (await client.callTool({
      name: 'list_payments',
      arguments: { order: invoice, full: true },
    })) as Schema;
    expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
    const expected = JSON.parse(cli.stdout) as unknown[];
    expect(expected.length, 'the order has payments').toBeGreaterThan(0);
    expect(result.structuredContent.records).toEqual(expected.slice(0, 20));
  });

  it('get_customer takes expand as a list, joined for the command', async () => {
    const customers = JSON.parse(
      (await runInProcess(['customers', 'list', '-o', 'json'], { env: emu.env() })).stdout,
    );
    const id = (customers as { id: number }[])[0]?.id as number;
    const cli = await runInProcess(
      ['customers', 'get', String(id), '-o', 'json', '--expand', 'orders,payments'],
      {
        env: emu.env(),
      },
    );
    expect(cli.code, cli.stderr).toBe(0);
    const { orders, payments } = JSON.parse(cli.stdout);
    const result = (await client.callTool({
      name: 'get_customer',
      arguments: { customer_id: id, expand: ['orders', 'payments'], full: true },
    })) as Schema;
    expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
    expect(result.structuredContent.orders.records).toEqual(orders.slice(0, 20));
    expect(result.structuredContent.payments.records).toEqual(payments.slice(0, 20));
  });
});
