// Shared by the payments tests: setting up payments on an emulator and reading what it holds.

import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { EmulatorState } from '../../src/emulator/index.js';
import { digestOf, type RowList } from '../../src/ops/batch/rows.js';
import { runCli } from '../helpers/cli.js';
import { emulatorApi, type TestEmulator } from '../helpers/emulator.js';

/** `count` paid single-payment orders of `amount` (via the admin API); their first payments' ids. */
export async function seedPayments(
  url: string,
  count: number,
  options: { amount?: string; currency?: string; preauth?: boolean; collected?: boolean } = {},
): Promise<{ orders: number[]; payments: number[]; customer_id: number }> {
  const answer = await emulatorApi(url, 'POST', '/__emulator/bulk-payments', { count, ...options });
  if (answer.status !== 201) throw new Error(`bulk-payments: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Amounts of the successful refunds of a payment, sorted, as the emulator recorded them. */
export function refundsOf(state: EmulatorState, paymentId: number): string[] {
  return [...state.payments.values()]
    .filter((p) => p.parent_id === paymentId && p.kind === 'refund' && p.status === 'succeeded')
    .map((p) => p.amount)
    .sort();
}

export function allRefunds(state: EmulatorState): number {
  return [...state.payments.values()].filter((p) => p.kind === 'refund').length;
}

/** The row records of a journal (its header lines, "type": "batch", left out). */
export function journalLines(path: string): Record<string, unknown>[] {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        const record = JSON.parse(line) as Record<string, unknown>;
        return record.type === 'batch' ? [] : [record];
      } catch {
        return [];
      }
    });
}

export async function waitFor(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A journal header line for these [line, key] rows, as a run of billing writes it. */
export function journalHeader(rows: RowList, input: string, action = 'refund'): string {
  const created = new Date().toISOString();
  const header = {
    v: 2,
    type: 'batch',
    batch: 'b_test',
    action,
    input,
    rows,
    digest: digestOf(rows),
    created,
    at: created,
  };
  return `${JSON.stringify(header)}\n`;
}

/** One order paid 20.00 and refunded 5.25 through the built CLI: what the lookups look up. */
export async function paidAndRefunded(emu: TestEmulator): Promise<{ order: number; payment: number }> {
  const seeded = await seedPayments(emu.url, 1, { amount: '20.00' });
  const payment = seeded.payments[0] as number;
  const refund = await runCli(['payments', 'refund', String(payment), '--amount', '5.25'], {
    env: emu.env(),
  });
  expect(refund.code).toBe(0);
  return { order: seeded.orders[0] as number, payment };
}
