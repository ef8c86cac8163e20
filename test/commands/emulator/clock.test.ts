// billing emulator clock, end to end: the built CLI against an emulator whose clock starts on
// 1 January 2027, with each rejection and its exit code.

import { describe, expect, it } from 'vitest';
import { adminFetch } from '../../helpers/emulator.js';
import { runInProcess } from '../../helpers/in-process.js';
import { charges, cliEnv, useBilling } from '../../recurring/helpers.js';

// A fresh emulator for each test, so that each starts on 1 January 2027.
const billing = useBilling();
const { cli, port, orderFor } = billing;
// main() run here (test/helpers/in-process.ts): the JSON of an advance and the refusals after the
// first, once the process has shown, advanced and refused.
const here = (args: string[]) => runInProcess(args, { env: cliEnv(billing.emulator) });

describe('emulator clock', () => {
  it('shows the time, advances it and lists what ran; refuses bad input with exit 2', async () => {
    const shown = await cli(['emulator', 'clock', '--port', port(), '-o', 'table']);
    expect(shown.code, shown.stderr).toBe(0);
    const now = (await adminFetch(`${billing.emulator.url}/__emulator/clock`).then((r) => r.json())) as {
      now: string;
    };
    expect(shown.stdout).toBe(`${now.now.slice(0, 16).replace('T', ' ')} UTC\n`);

    const { orderId } = await orderFor('15/03/2027 09:00');
    const before = charges(billing.emulator, orderId).length;
    const moved = await cli(['emulator', 'clock', 'advance', '90d', '--port', port(), '-o', 'table']);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(
      /^Clock: \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC → \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\n/,
    );
    expect(moved.stdout).toMatch(
      new RegExp(`2027-03-15 09:00 UTC\\s+${orderId}\\s+\\d+\\s+charged\\s+active\\s+20\\.00 EUR collected`),
    );
    expect(moved.stderr).toMatch(/\d+ things? ran/);
    expect(charges(billing.emulator, orderId).length).toBeGreaterThan(before);

    const json = await here(['emulator', 'clock', 'advance', '1d', '--port', port(), '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ ran_count: expect.any(Number), ran: expect.any(Array) });

    for (const [i, args] of [
      ['advance', '3x'],
      ['advance'],
      ['--to', '2026-01-01'],
      ['forward', '1d'],
    ].entries()) {
      const refused = await (i === 0 ? cli : here)(['emulator', 'clock', ...args, '--port', port()]);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr).toMatch(/^error: /);
    }
  });
});
