// billing links url, end to end: the built CLI against the emulator. What it prints, and its exit code.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Env, makeOrder, useShop } from '../../checkout/helpers.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import type { TestEmulator } from '../../helpers/emulator.js';

let t: TestEmulator, env: Env, customer: number, product: number;
useShop((shop) => ({ t, env, customer, product } = shop));

const billing = (...args: string[]) => runCli(args, { env });

describe('billing links', () => {
  it('url: prints only the link on stdout; --qr draws it first, without escape codes in a pipe', async () => {
    const { order } = await makeOrder(t.url, { customer, product });
    const plain = await billing('links', 'url', String(order.id));
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(new RegExp(`^${t.url}/portal/[0-9a-f]{32}\\n$`));
    expect(plain.stderr).toContain(`Order ${order.id} moved from draft to pending`);
    const qr = await billing('links', 'url', String(order.id), '--qr');
    const lines = qr.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(plain.stdout.trim());
    expect(lines.length).toBeGreaterThan(10);
    expect(qr.stdout).toMatch(/[█▀▄]/);
    expect(qr.stdout).not.toContain('\u001b');
  });

  it('url --png: writes a PNG whole, keeps an existing file unless --force, leaves no temporary file', async () => {
    const { order } = await makeOrder(t.url, { customer, product });
    const dir = tempDir('billing-png-');
    const file = join(dir, 'pay.png');
    const first = await billing('links', 'url', String(order.id), '--png', file);
    expect(first.code).toBe(0);
    expect(readFileSync(file).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(first.stderr).toContain(`QR code of the payment link written to ${file}.`);

    writeFileSync(file, 'mine');
    const again = await billing('links', 'url', String(order.id), '--png', file);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`${file} already exists`);
    expect(readFileSync(file, 'utf8')).toBe('mine');

    const forced = await billing('links', 'url', String(order.id), '--png', file, '--force');
    expect(forced.code).toBe(0);
    expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    expect(readdirSync(dir)).toEqual(['pay.png']);

    const missing = await billing('links', 'url', String(order.id), '--png', join(dir, 'no/such/dir.png'));
    expect(missing.code).toBe(2);
    expect(existsSync(join(dir, 'no'))).toBe(false);
  });
});
