// Issue 16 §6: amounts never pass through floating point. Every JSON input the CLI reads (a
// refund file in NDJSON, `orders create --file`, `billing api -F` and `--input`) keeps each
// number's source digits: an amount is read with the string rule (two decimals at most, exact)
// or refused, and a body sent on carries the digits as written.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNdjson, runCli, tempDir } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { hostileServices, send } from '../hostile/service.js';
import { refundsOf, seedPayments } from '../payments/helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

const serve = hostileServices();

function file(name: string, text: string): string {
  const path = join(tempDir('billing-exact-'), name);
  writeFileSync(path, text);
  return path;
}

describe('a refund file in NDJSON with amounts written as JSON numbers', () => {
  it('1.999999999999999999 is refused like the string, not refunded as 2.00 (exit 2, nothing sent)', async () => {
    const { payments } = await seedPayments(emu.url, 1, { amount: '55.50' });
    const p = payments[0] as number;
    const input = file(
      'r.ndjson',
      `{"payment_id":${p},"amount":1.50}\n{"payment_id":${p},"amount":1.999999999999999999}\n`,
    );
    const r = await runCli(['payments', 'refund', '--file', input, '--journal', join(tempDir(), 'j')], {
      env: emu.env(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('line 2: invalid amount "1.999999999999999999"');
    expect(refundsOf(emu.emulator.state, p)).toEqual([]);
  });

  it('12345678901234567.89 and 9007199254740993 are read to the cent, and 1.50 is refunded as 1.50', async () => {
    const { payments } = await seedPayments(emu.url, 1, { amount: '55.50' });
    const p = payments[0] as number;
    const input = file(
      'r.ndjson',
      [
        `{"payment_id":${p},"amount":1.50}`,
        `{"payment_id":${p},"amount":12345678901234567.89}`,
        `{"payment_id":${p},"amount":9007199254740993}`,
        '',
      ].join('\n'),
    );
    const dry = await runCli(['payments', 'refund', '--file', input, '--dry-run', '-o', 'ndjson'], {
      env: emu.env(),
    });
    expect(dry.code, dry.stderr).toBe(0);
    expect(
      (parseNdjson(dry.stdout) as { body: { payment: { amount: string } } }[]).map(
        (q) => q.body.payment.amount,
      ),
    ).toEqual(['1.50', '12345678901234567.89', '9007199254740993.00']);
    const r = await runCli(['payments', 'refund', '--file', input, '-o', 'ndjson'], { env: emu.env() });
    const rows = parseNdjson(r.stdout) as { amount: string; status: string; error: string | null }[];
    expect(rows.map((row) => [row.amount, row.status])).toEqual([
      ['1.50', 'refunded'],
      ['12345678901234567.89', 'failed'],
      ['9007199254740993.00', 'failed'],
    ]);
    // Refused for being more than the payment, with the digits as written: never …568.00 or …992.00.
    expect(rows[1]?.error).toContain('12345678901234567.89 is more than');
    expect(rows[2]?.error).toContain('9007199254740993.00 is more than');
    expect(refundsOf(emu.emulator.state, p)).toEqual(['1.50']);
  });
});

/** A service that records what it is sent and answers a created order. */
async function recordingService() {
  return serve((req, res) => {
    if (req.method === 'POST') {
      return send(res, 201, {
        order: { id: 7, status: { value: 'draft', label: 'Draft' }, currency: 'EUR' },
      });
    }
    send(res, 200, { ok: true });
  });
}

describe('orders create --file', () => {
  it('sends each number with exactly the digits of the file', async () => {
    const h = await recordingService();
    const body =
      '{"order":{"currency":"EUR","customer_id":9007199254740993,"invoice_id":"X1",' +
      '"order_products":[{"product_id":12345678901234567.89,"qty":1.999999999999999999}]}}';
    const r = await h.cli(['orders', 'create', '--file', file('order.json', body)]);
    expect(r.code, r.stderr).toBe(0);
    const sent = h.service.received.find((q) => q.method === 'POST')?.body ?? '';
    expect(sent).toContain('"customer_id":9007199254740993');
    expect(sent).toContain('"product_id":12345678901234567.89');
    expect(sent).toContain('"qty":1.999999999999999999');
  });
});

describe('billing api', () => {
  it('-F sends a number with its digits as typed', async () => {
    const h = await recordingService();
    const r = await h.cli([
      'api',
      'POST',
      '/payments/1/refund',
      '-F',
      'payment[amount]=12345678901234567.89',
      '-F',
      'payment[id]=9007199254740993',
      '-F',
      'payment[x]=1.999999999999999999',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(h.service.received.at(-1)?.body).toBe(
      '{"payment":{"amount":12345678901234567.89,"id":9007199254740993,"x":1.999999999999999999}}',
    );
  });

  it('--input sends the file as written, and --dry-run shows those digits', async () => {
    const h = await recordingService();
    const text =
      '{"payment": {"amount": 1.999999999999999999, "id": 9007199254740993, "big": 12345678901234567.89}}\n';
    const input = file('body.json', text);
    const r = await h.cli(['api', 'POST', '/payments/1/refund', '--input', input]);
    expect(r.code, r.stderr).toBe(0);
    expect(h.service.received.at(-1)?.body).toBe(text);

    const dry = await h.cli([
      'api',
      'POST',
      '/payments/1/refund',
      '--input',
      input,
      '--dry-run',
      '-o',
      'json',
    ]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('"amount": 1.999999999999999999');
    expect(dry.stdout).toContain('"id": 9007199254740993');
    expect(dry.stdout).toContain('"big": 12345678901234567.89');
    const table = await h.cli(['api', 'POST', '/payments/1/refund', '-F', 'a=9007199254740993', '--dry-run']);
    expect(table.stdout).toContain('"a": 9007199254740993');
  });

  it('--input with a key given twice with two values is refused before sending (exit 2)', async () => {
    const h = await recordingService();
    const input = file('body.json', '{"payment":{"amount":"1.00","amount":"100.00"}}');
    const r = await h.cli(['api', 'POST', '/payments/1/refund', '--input', input]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('gives the key "amount" twice, with two values');
    expect(h.service.received).toEqual([]);
  });
});
