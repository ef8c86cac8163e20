// billing payments capture (and reverse, which releases what capture would take), end to end:
// the built CLI against the emulator, with every rejection and its exit code.

import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { faultsOn, useEmulator } from '../../helpers/suite.js';
import { seedPayments } from '../../payments/helpers.js';

const emu = useEmulator();

const cli = (args: string[], extra: Record<string, string | undefined> = {}, input?: string) =>
  runCli(args, { env: emu.env(extra), input });

const withFaults = faultsOn(emu);

describe('payments capture and reverse', () => {
  it('captures part of a pre-authorisation, and refuses what the service refuses (exit 7)', async () => {
    const { payments } = await seedPayments(emu.url, 2, { preauth: true, amount: '50.00' });
    const [first, second] = payments.map(String) as [string, string];
    const over = await cli(['payments', 'capture', first, '--amount', '60']);
    expect(over.code).toBe(7);
    expect(over.stderr).toContain('more than the 50.00 authorised');
    const captured = await cli(['payments', 'capture', first, '--amount', '40', '-o', 'ndjson']);
    expect(captured.code).toBe(0);
    expect(JSON.parse(captured.stdout)).toMatchObject({ kind: 'capture', amount: '40.00' });
    expect((await cli(['payments', 'reverse', first])).code).toBe(7);
    expect((await cli(['payments', 'capture', first])).code).toBe(7);

    const reversed = await cli(['payments', 'reverse', second]);
    expect(reversed.code).toBe(0);
    expect(reversed.stderr).toContain(`Released 50.00 EUR of pre-authorisation ${second}.`);
    expect((await cli(['payments', 'capture', second])).code).toBe(7);
    expect((await cli(['payments', 'capture', '99999'])).code).toBe(5);
    expect((await cli(['payments', 'capture', first, '--amount', '1.001'])).code).toBe(2);
  });

  it('--dry-run for capture and reverse sends nothing', async () => {
    const { payments } = await seedPayments(emu.url, 1, { preauth: true });
    const id = payments[0] as number;
    const capture = await cli(['payments', 'capture', String(id), '--amount', '3', '--dry-run']);
    expect(capture.stdout).toBe(
      `POST /api/v2/profiles/1/payments/${id}/capture {"payment":{"amount":"3.00"}}\n`,
    );
    const reverse = await cli(['payments', 'reverse', String(id), '--dry-run']);
    expect(reverse.stdout).toBe(`POST /api/v2/profiles/1/payments/${id}/reverse\n`);
    const children = [...emu.emulator.state.payments.values()].filter((p) => p.parent_id === id);
    expect(children).toEqual([]);
  });

  it('after a 502 that was applied, a capture is not sent again', async () => {
    const { payments } = await seedPayments(emu.url, 1, { preauth: true });
    const id = payments[0] as number;
    const result = await withFaults([{ route: 'capture', mode: 'after' }], () =>
      cli(['payments', 'capture', String(id)]),
    );
    expect(result.code).toBe(0);
    const captures = [...emu.emulator.state.payments.values()].filter((p) => p.parent_id === id);
    expect(captures.map((p) => p.kind)).toEqual(['capture']);
  });
});
