// billing orders watch, end to end: the built CLI against an emulator whose clock starts on
// 1 January 2027, with each rejection and its exit code.

import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, parseNdjson } from '../../helpers/cli.js';
import { advance, cliEnv, useBilling } from '../../recurring/helpers.js';
import { waitFor } from '../../webhooks/helpers.js';

// A fresh emulator for each test, so that each starts on 1 January 2027.
const billing = useBilling();
const { cli, orderFor, setDecline } = billing;

describe('orders watch', () => {
  it('prints each status change as it happens and exits 0 when the status is reached', async () => {
    const { orderId, customerId } = await orderFor();
    await setDecline(customerId, 'soft', 1);
    const child = spawn(
      process.execPath,
      [
        BIN,
        'orders',
        'watch',
        String(orderId),
        '--until',
        'failed',
        '--interval',
        '0.05',
        '--timeout',
        '20',
        '-o',
        'ndjson',
      ],
      {
        env: cliEnv(billing.emulator),
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 60_000,
        killSignal: 'SIGKILL',
      },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Once it has seen the order active, the clock runs through the declined payment.
    await waitFor(() => (stdout.includes('"active"') ? true : undefined), 15_000);
    await advance(billing.emulator, { to: '2027-02-01' });
    expect(await exited).toBe(0);
    const lines = parseNdjson(stdout) as { status: string; previous_status: string | null }[];
    expect(lines.map((l) => [l.previous_status, l.status])).toEqual([
      [null, 'active'],
      ['active', 'failed'],
    ]);
  });

  it('exits 8 when the status is not reached in time', async () => {
    const { orderId } = await orderFor();
    const result = await cli([
      'orders',
      'watch',
      String(orderId),
      '--until',
      'complete',
      '--timeout',
      '0.4',
      '--interval',
      '0.1',
    ]);
    expect(result.code).toBe(8);
    expect(result.stdout).toBe(
      `${orderId}\t\tactive\t${billing.emulator.state.orders.get(orderId)?.status_updated_at}\n`,
    );
    expect(result.stderr).toContain(`timed out after 0.4 s: order ${orderId} is active, not complete`);
    // With -o json the changes are one JSON array, whole even when the watch ends in a timeout.
    const json = await cli([
      'orders',
      'watch',
      String(orderId),
      '--until',
      'complete',
      '--timeout',
      '0.3',
      '-o',
      'json',
    ]);
    expect(json.code).toBe(8);
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ order_id: orderId, previous_status: null, status: 'active' }),
    ]);
    expect((await cli(['orders', 'watch', String(orderId), '--until', 'done'])).code).toBe(2);
  });
});
