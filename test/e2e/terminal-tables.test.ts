// Tables as a person sees them, on a real pseudo-terminal 60 and 120 columns wide: a list
// says that there are more pages, a detail view shows every field the service sent, and no
// line is wider than the terminal.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTPUT_FORMATS, traitsOf } from '../../src/format/formats.js';
import { humanize } from '../../src/format/text.js';
import { runCli } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runOnPty } from '../helpers/pty.js';

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
});
afterAll(async () => {
  await emu.close();
});

async function onTerminal(args: string[], cols: number): Promise<string[]> {
  const result = await runOnPty(args, { env: emu.env(), cols, rows: 50 }).exited;
  expect(result.code, result.text).toBe(0);
  return result.text.split(/\r?\n/);
}

function expectFits(lines: string[], cols: number) {
  for (const line of lines) expect([...line].length, `wider than ${cols}: ${line}`).toBeLessThanOrEqual(cols);
}

/** Every leaf field of a record as [label, value] as a person would look for them. */
function leaves(record: Record<string, unknown>, out: [string, string][] = []): [string, string][] {
  for (const [key, value] of Object.entries(record)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      leaves(value as Record<string, unknown>, out);
    } else if (Array.isArray(value)) {
      for (const item of value) {
        if (item !== null && typeof item === 'object') leaves(item as Record<string, unknown>, out);
      }
    } else {
      out.push([humanize(key), value === null || value === undefined ? '' : String(value)]);
    }
  }
  return out;
}

describe('tables on a terminal', () => {
  it('orders list ends with a footer that says which page of how many, and how to see more', async () => {
    const { body } = await emulatorApi(emu.url, 'GET', '/api/v2/profiles/1/orders');
    const { total_pages: pages, total_count: count } = body.pagination;
    expect(pages).toBeGreaterThan(1);
    for (const cols of [60, 120]) {
      const lines = await onTerminal(['orders', 'list'], cols);
      expect(lines.join('\n')).toContain(`page 1 of ${pages} · ${count} orders · --page 2 or --all`);
      expectFits(lines, cols);
    }
    const last = await onTerminal(['orders', 'list', '--page', String(pages)], 120);
    expect(last.join('\n')).toContain(`page ${pages} of ${pages} · ${count} orders`);
    expect(last.join('\n')).not.toContain('--page');
  });

  it('the footer is for people only: not in a pipe, not with json, ndjson, csv or tsv', async () => {
    const piped = await runCli(['orders', 'list', '-o', 'table'], { env: emu.env() });
    expect(piped.code).toBe(0);
    expect(piped.stdout + piped.stderr).not.toContain('page 1 of');
    // Every format but the screen's (src/format/formats.ts): a footer there would be read as data.
    for (const format of OUTPUT_FORMATS.filter((f) => traitsOf(f).shows !== 'screen')) {
      const lines = await onTerminal(['orders', 'list', '-o', format], 120);
      expect(lines.join('\n'), format).not.toContain('page 1 of');
    }
  });

  it('orders get shows every field, Summary and Customer details included, wrapped within 60 and 120 columns', async () => {
    const { body } = await emulatorApi(emu.url, 'GET', '/api/v2/profiles/1/orders/200');
    const order = body.order;
    expect(order.summary.paid_total).toBeDefined();
    for (const cols of [60, 120]) {
      const lines = await onTerminal(['orders', 'get', '200'], cols);
      expectFits(lines, cols);
      // The record view; the tables under it (payments, next payment) give up columns first.
      const screen = lines.join('\n').split(/\nPayments \(/)[0] as string;
      expect(screen).not.toContain('…');
      expect(screen).toMatch(/^Summary$/m);
      expect(screen).toMatch(/^Customer details$/m);
      expect(screen).toMatch(
        new RegExp(`^ {2}Paid total\\s+${order.summary.paid_total.replace('.', '\\.')}$`, 'm'),
      );
      expect(screen).toMatch(/^ {2}Refunded total\s+\d+\.\d{2}$/m);
      // Every field, wherever it sits, by its label and its value (a long value may wrap).
      const flat = screen.replace(/\n\s+/g, ' ');
      // The fields the top rows show in their own words (Invoice ID, Amount, Type, …) are left out here.
      const {
        id,
        merchant_invoice_id,
        initial_amount,
        currency,
        customer_id,
        status,
        order_type,
        created_at,
        ...rest
      } = order;
      for (const [label, value] of leaves(rest)) {
        const words = label.toLowerCase().replace(/ id$/, '');
        expect(screen.toLowerCase(), `${label} at ${cols} columns`).toContain(words);
        if (!/^\d{4}-\d{2}-\d{2}T/.test(value)) expect(flat, `${label} = ${value}`).toContain(value);
      }
      expect(screen).toContain(`${initial_amount} ${currency}`);
      expect(screen).toContain(merchant_invoice_id);
      expect(screen).toContain(order_type.label);
      expect(screen).toContain(status.value);
      expect([id, customer_id, created_at]).not.toContain(undefined);
      expect(screen).toMatch(/^Created\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/m);
    }
  });

  it('every resource detail view fits 60 columns and hides nothing', async () => {
    for (const [args, path, key] of [
      [['customers', 'get', '1'], '/api/v2/profiles/1/customers/1', 'customer'],
      [['products', 'get', '1'], '/api/v2/profiles/1/products/1', 'product'],
    ] as const) {
      const { body } = await emulatorApi(emu.url, 'GET', path);
      const record = body[key] ?? body;
      const lines = await onTerminal([...args], 60);
      expectFits(lines, 60);
      const flat = lines.join('\n').replace(/\n\s+/g, ' ');
      for (const [, value] of leaves(record)) {
        if (value !== '' && !/^\d{4}-\d{2}-\d{2}T/.test(value) && !/^\d+(\.\d+)?$/.test(value)) {
          expect(flat, `${args.join(' ')}: ${value}`).toContain(value);
        }
      }
    }
  });
});
