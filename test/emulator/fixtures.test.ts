// Fixtures (issue 19 §3): `billing emulator apply FILE`, `start|reset --fixtures FILE`, the
// demo seed as the fixture that ships with the package, and a bad fixture refused whole.

import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatorSource } from '../../scripts/fixture-validator.mjs';
import { applySeed } from '../../src/emulator/fixtures/seed.js';
import { EmulatorState } from '../../src/emulator/index.js';
import { freePort, runCli, tempDir } from '../helpers/cli.js';
import { adminFetch, emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';

const SHOP = resolve(import.meta.dirname, '../fixtures/shop.yaml');
const DEMO = resolve(import.meta.dirname, '../../fixtures/demo.json');
const P = '/api/v2/profiles/1';

function write(name: string, text: string): string {
  const file = join(tempDir('billing-fixture-'), name);
  writeFileSync(file, text);
  return file;
}

async function admin(url: string, path: string, body: unknown = {}) {
  return emulatorApi(url, 'POST', `/__emulator/${path}`, body);
}

describe('billing emulator apply', () => {
  let t: TestEmulator;
  let port: string;
  beforeAll(async () => {
    t = await startTestEmulator();
    port = String(t.emulator.port);
  });
  afterAll(() => t.close());

  it('makes the named records, each referring to earlier ones, in their statuses, with the clock set', async () => {
    const run = await runCli(['emulator', 'apply', SHOP, '--port', port, '--json'], { env: t.env() });
    expect(run.stderr).toContain('Applied');
    expect(run.code).toBe(0);
    const ids = JSON.parse(run.stdout);
    expect(Object.keys(ids.customers)).toEqual(['ada', 'grace']);

    const paid = (await emulatorApi(t.url, 'GET', `${P}/orders/${ids.orders.paid}`)).body.order;
    expect(paid.status.value).toBe('active');
    expect(paid.merchant_invoice_id).toBe('FX-PAID');
    expect(paid.customer_id).toBe(ids.customers.ada);
    expect(paid.summary.initial_amount).toBe('24.00');
    const payments = (await emulatorApi(t.url, 'GET', `${P}/orders/${ids.orders.paid}/payments`)).body
      .payments;
    expect(payments.map((p: { kind: string; amount: string }) => `${p.kind} ${p.amount}`)).toEqual([
      'debit 24.00',
      'refund 5.00',
    ]);
    expect(ids.payments.refund).toBe(payments[1].id);

    const held = await emulatorApi(t.url, 'GET', `${P}/orders/${ids.orders.held}/payments`);
    expect(held.body.payments.map((p: { kind: string }) => p.kind)).toEqual(['preauthorization', 'capture']);
    const draft = (await emulatorApi(t.url, 'GET', `${P}/orders/${ids.orders.draft}`)).body.order;
    expect(draft.status.value).toBe('draft');
    const box = (await emulatorApi(t.url, 'GET', `${P}/orders/${ids.subscriptions.ada_box}`)).body.order;
    expect(box.status.value).toBe('paused');
    expect(box.order_type.value).toBe('subscription');
    expect(box.created_at).toBe('2026-12-06T09:00:00.000Z');
    const grace = await emulatorApi(t.url, 'GET', `/api/v2/profiles/2/customers/${ids.customers.grace}`);
    expect(grace.status).toBe(200);

    const clock = await runCli(['emulator', 'clock', '--port', port, '--json'], { env: t.env() });
    expect(JSON.parse(clock.stdout).now).toMatch(/^2027-01-15T09:0/);
  });

  it('refuses a bad fixture whole, naming the path of the bad key, and changes nothing', async () => {
    const before = (await emulatorApi(t.url, 'GET', '/__emulator/status')).body.counts;
    // A new invoice id: the first test has already made FX-PAID. No clock: the first test set
    // it, and it has moved on since (a clock behind it is refused, see below).
    const shop = readFileSync(SHOP, 'utf8').replace(/^clock: .*\n/m, '');
    const text = shop.replace('FX-PAID', 'FX-AGAIN');
    const cases: [string, string, RegExp][] = [
      [
        'status.yaml',
        text.replace('status: paused', 'status: snoozing'),
        /subscriptions\.ada_box\.status: must be one of/,
      ],
      [
        'ref.yaml',
        text.replace('mug.id}", qty: 2', 'cup.id}", qty: 2'),
        /orders\.paid\.lines\.0\.product: \$\{products\.cup\.id\} names no products record/,
      ],
      ['invoice.yaml', shop, /orders\.paid\.invoice_id: invoice_id FX-PAID is already used/],
      ['qty.yaml', text.replace('qty: 2', 'qty: "2"'), /orders\.paid\.lines\.0\.qty: must be integer/],
      [
        'extra.yaml',
        text.replace('description: Stoneware', 'colour: blue'),
        /products\.mug\.colour: is not a field/,
      ],
      // Passes the schema but not the service's rules: made, then undone.
      [
        'refund.yaml',
        text.replace('amount: "5.00"', 'amount: "500.00"'),
        /payments\.refund: refund amount 500\.00 is more than/,
      ],
      [
        'single.yaml',
        text.replace('status: active, invoice_id: FX-AGAIN', 'status: paused, invoice_id: FX-AGAIN'),
        /orders\.paid\.status: only a subscription order can be paused/,
      ],
    ];
    // The first case runs the built CLI (its exit code and stderr as a process); the rest check
    // what apply decides, in-process (test/helpers/in-process.ts), against the same emulator.
    for (const [at, [name, fixture, message]] of cases.entries()) {
      const args = ['emulator', 'apply', write(name, fixture), '--port', port];
      const run =
        at === 0 ? await runCli(args, { env: t.env() }) : await runInProcess(args, { env: t.env() });
      expect(run.code, name).toBe(2);
      expect(run.stderr, name).toMatch(message);
      expect(run.stderr, name).toContain('nothing was applied');
    }
    const notYaml = await runInProcess(['emulator', 'apply', write('x.yaml', 'a: [1'), '--port', port], {
      env: t.env(),
    });
    expect(notYaml.code).toBe(2);
    expect(notYaml.stderr).toMatch(/x\.yaml is not valid YAML/);
    const missing = await runInProcess(['emulator', 'apply', '/nonexistent/f.json', '--port', port], {
      env: t.env(),
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no such file/);
    expect((await emulatorApi(t.url, 'GET', '/__emulator/status')).body.counts).toEqual(before);
  });

  it("refuses a clock behind the emulator's whole (exit 2, naming the key clock): time only moves forward", async () => {
    const before = await emulatorApi(t.url, 'GET', '/__emulator/status');
    const clock = (await emulatorApi(t.url, 'GET', '/__emulator/clock')).body;
    const file = write(
      'past.yaml',
      'clock: 2020-01-01T00:00:00Z\ncustomers:\n  old: {first_name: Old, last_name: Timer}\n',
    );
    const run = await runCli(['emulator', 'apply', file, '--port', port], { env: t.env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /fixture clock: 2020-01-01T00:00:00Z is before the emulator's clock \(.+\): the clock only moves forward; nothing was applied/,
    );
    const answer = await admin(t.url, 'apply', { clock: '2020-01-01T00:00:00Z' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual([
      { field: 'clock', message: expect.stringContaining('only moves forward') },
    ]);
    expect((await emulatorApi(t.url, 'GET', '/__emulator/status')).body.counts).toEqual(before.body.counts);
    const after = (await emulatorApi(t.url, 'GET', '/__emulator/clock')).body;
    expect(Date.parse(after.now)).toBeGreaterThanOrEqual(Date.parse(clock.now));
  });

  it('takes JSON as well as YAML', async () => {
    const file = write(
      'one.json',
      JSON.stringify({ customers: { bob: { first_name: 'Bob', last_name: 'B' } } }),
    );
    const run = await runCli(['emulator', 'apply', file, '--port', port, '--json'], { env: t.env() });
    expect(run.code).toBe(0);
    const id = JSON.parse(run.stdout).customers.bob;
    expect((await emulatorApi(t.url, 'GET', `${P}/customers/${id}`)).body.customer.first_name).toBe('Bob');
  });

  // An order told by its story (issue 28 §4).
  const base = {
    customers: {
      ada: { first_name: 'Ada', last_name: 'L', card: { brand: 'visa', last4: '4242', expiry: '12/40' } },
    },
    products: {
      box: { name: 'Box', price: '10.00', product_type: 'subscription' },
      mug: { name: 'Mug', price: '12.00' },
    },
  };
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the reference syntax of a fixture
  const ada = '${customers.ada.id}';
  const line = (product: string) => [{ product: `\${products.${product}.id}` }];
  const applyArgs = (orders: unknown) => [
    'emulator',
    'apply',
    write('story.json', JSON.stringify({ ...base, orders })),
    '--port',
    port,
    '--json',
  ];
  const apply = (orders: unknown) => runCli(applyArgs(orders), { env: t.env() });
  /** apply in-process: for refusals whose exit and stderr a process run of the same kind already checks. */
  const applyHere = (orders: unknown) => runInProcess(applyArgs(orders), { env: t.env() });

  it('is played by the rules: the card rule answers the first payment, the clock charges each cycle, a pause skips', async () => {
    const run = await apply({
      box: {
        customer: ada,
        lines: line('box'),
        created_at: 'now-70d',
        story: [{ at: 'now-70d', pay: '4200000000000000' }],
      },
      paused: {
        customer: ada,
        lines: line('box'),
        created_at: 'now-40d',
        story: [
          { at: 'now-40d', pay: '5454545454545454' },
          { at: 'now-35d', to: 'paused' },
        ],
      },
      soft: {
        customer: ada,
        lines: line('mug'),
        created_at: 'now-2d',
        story: [{ at: 'now-1d', pay: '4000000000000002' }],
      },
      hard: {
        customer: ada,
        lines: line('mug'),
        created_at: 'now-2d',
        story: [{ at: 'now-1d', pay: '4000000000000069' }],
      },
    });
    expect(run.stderr).toContain('Applied');
    expect(run.code).toBe(0);
    const ids = JSON.parse(run.stdout).orders;
    const read = async (id: number) => ({
      order: (await emulatorApi(t.url, 'GET', `${P}/orders/${id}`)).body.order,
      payments: (await emulatorApi(t.url, 'GET', `${P}/orders/${id}/payments`)).body.payments,
      schedule: (await emulatorApi(t.url, 'GET', `${P}/orders/${id}/scheduled_payments`)).body
        .scheduled_payments,
    });
    const kinds = (payments: { kind: string; status: string }[]) =>
      payments.map((p) => `${p.kind} ${p.status}`);

    const box = await read(ids.box);
    expect(box.order.status.value).toBe('active');
    // Created 70 days ago: the first payment, then two cycles charged as they fell due.
    expect(kinds(box.payments)).toEqual(['debit succeeded', 'debit succeeded', 'debit succeeded']);
    expect(box.order.summary.paid_total).toBe('30.00');
    expect(box.schedule.map((e: { status: string }) => e.status)).toEqual([
      'paid',
      'paid',
      'paid',
      'scheduled',
    ]);
    for (const entry of box.schedule.filter((e: { status: string }) => e.status === 'paid')) {
      expect(box.payments.map((p: { id: number }) => p.id)).toContain(entry.payment_id);
    }

    const paused = await read(ids.paused);
    expect(paused.order.status.value).toBe('paused');
    expect(kinds(paused.payments)).toEqual(['debit succeeded']);
    expect(paused.schedule.map((e: { status: string }) => e.status)).toEqual([
      'paid',
      'skipped',
      'scheduled',
    ]);

    for (const [name, status] of [
      ['soft', 'failed'],
      ['hard', 'rejected'],
    ] as const) {
      const order = await read(ids[name]);
      expect(order.order.status.value, name).toBe(status);
      expect(kinds(order.payments), name).toEqual(['debit failed']);
    }
  });

  it('refuses, naming the step, a story the rules cannot play, a step before the order or after the clock, and a story with a status', async () => {
    const order = (story: unknown[], extra = {}) => ({
      x: { customer: ada, lines: line('mug'), created_at: 'now-5d', story, ...extra },
    });
    const cases: [unknown, RegExp][] = [
      [
        order([{ at: 'now-1d', to: 'suspended' }]),
        /orders\.x\.story\.0: .*rules do not move a single payment order from draft to suspended/,
      ],
      [
        order([{ at: 'now-6d', pay: '4200000000000000' }]),
        /orders\.x\.story\.0\.at: now-6d is before the order was created/,
      ],
      [
        order([{ at: 'now+1d', pay: '4200000000000000' }]),
        /orders\.x\.story\.0\.at: now\+1d is after the emulator's clock/,
      ],
      [
        order([], { status: 'active' }),
        /orders\.x\.story: an order told by its story takes its status from it/,
      ],
      [
        order([
          { at: 'now-3d', pay: '4200000000000000' },
          { at: 'now-2d', pay: '4200000000000000' },
        ]),
        /orders\.x\.story\.1\.pay: order \d+ is active: only a draft, pending or failed order can be paid/,
      ],
    ];
    const before = (await emulatorApi(t.url, 'GET', '/__emulator/status')).body.counts;
    for (const [at, [orders, message]] of cases.entries()) {
      const run = at === 0 ? await apply(orders) : await applyHere(orders);
      expect(run.code, String(message)).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).toContain('nothing was applied');
    }
    expect((await emulatorApi(t.url, 'GET', '/__emulator/status')).body.counts).toEqual(before);
  });
});

describe('emulator start|reset --fixtures', () => {
  it('starts from a fixture, and reset goes back to it (or to another one)', async () => {
    const port = await freePort();
    const env = { BILLING_CONFIG_DIR: tempDir('billing-config-') };
    const start = await runCli(
      ['emulator', 'start', '--port', String(port), '--fixtures', SHOP, '--detach'],
      { env },
    );
    expect(start.code, start.stderr).toBe(0);
    const url = `http://127.0.0.1:${port}`;
    try {
      expect((await emulatorApi(url, 'GET', '/__emulator/status')).body.counts).toEqual({
        orders: 4,
        customers: 2,
        products: 2,
      });
      // The status says what it started from: the seed, then the fixture file.
      const status = await runCli(['emulator', 'status', '--port', String(port), '--json'], { env });
      expect(JSON.parse(status.stdout)).toMatchObject({ seed: 'empty', fixture: SHOP });
      const table = await runCli(['emulator', 'status', '--port', String(port)], { env });
      expect(table.stdout).toMatch(new RegExp(`fixture\\s+${SHOP.replace(/[.]/g, '\\.')}`));
      await admin(url, 'bulk-orders', { count: 5 });
      const reset = await runCli(['emulator', 'reset', '--port', String(port), '--yes'], { env });
      expect(reset.code, reset.stderr).toBe(0);
      expect((await emulatorApi(url, 'GET', '/__emulator/status')).body.counts.orders).toBe(4);
      const other = write('one.yaml', 'customers:\n  bob: {first_name: Bob, last_name: B}\n');
      const again = await runCli(
        ['emulator', 'reset', '--port', String(port), '--fixtures', other, '--yes'],
        { env },
      );
      expect(again.code, again.stderr).toBe(0);
      expect((await emulatorApi(url, 'GET', '/__emulator/status')).body.fixture).toBe(other);
      expect((await emulatorApi(url, 'GET', '/__emulator/status')).body.counts).toEqual({
        orders: 0,
        customers: 1,
        products: 0,
      });
      const bad = write('bad.yaml', 'customers:\n  bob: {first_name: Bob}\n');
      const refused = await runCli(
        ['emulator', 'reset', '--port', String(port), '--fixtures', bad, '--yes'],
        { env },
      );
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/customers\.bob\.last_name: is required/);
      expect((await emulatorApi(url, 'GET', '/__emulator/status')).body.counts.customers).toBe(1);
    } finally {
      await runCli(['emulator', 'stop', '--port', String(port), '--yes'], { env });
    }
  });

  it('refuses to start from a bad fixture (exit 2, nothing listens)', async () => {
    const port = await freePort();
    const bad = write('bad.json', '{"orders": {"x": {"customer": 1}}}');
    const run = await runCli(['emulator', 'start', '--port', String(port), '--fixtures', bad], {
      env: { BILLING_CONFIG_DIR: tempDir('billing-config-') },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/orders\.x\.lines: is required/);
  });

  it('--detach with a fixture apply refuses: exit 2 with the one error line of apply, and nothing left running', async () => {
    const port = await freePort();
    const bad = write('past.yaml', 'clock: 2020-01-01T00:00:00Z\n');
    const env = { BILLING_CONFIG_DIR: tempDir('billing-config-') };
    const run = await runCli(['emulator', 'start', '--port', String(port), '--fixtures', bad, '--detach'], {
      env,
    });
    expect(run.code, run.stderr).toBe(2);
    const errors = run.stderr.split('\n').filter((line) => line.includes('error:'));
    expect(errors).toEqual([
      expect.stringMatching(/^error: fixture clock: .* the clock only moves forward; nothing was applied$/),
    ]);
    await expect(adminFetch(`http://127.0.0.1:${port}/__emulator/status`)).rejects.toThrow();
  });
});

describe('the demo seed is the fixture that ships with the package', () => {
  it('applying fixtures/demo.json to an empty emulator gives the records of --seed demo', async () => {
    const seeded = new EmulatorState();
    await applySeed(seeded, 'demo');
    const applied = new EmulatorState();
    await applySeed(applied, 'empty', JSON.parse(readFileSync(DEMO, 'utf8')));
    const shape = (s: EmulatorState) =>
      JSON.stringify({
        ...s.snapshot(),
        seed: null,
        fixture: null,
        orders: [...s.orders.values()].map(({ created_at, updated_at, status_updated_at, ...o }) => o),
        customers: [...s.customers.values()].map(({ created_at, updated_at, ...c }) => c),
        products: [...s.products.values()].map(({ created_at, updated_at, ...p }) => p),
        scheduled_payments: [...s.scheduledPayments.values()].map(({ due_date, ...p }) => p),
        payments: [...s.payments.values()].map(({ created_at, ...p }) => p),
      });
    expect(applied.counts()).toEqual({ orders: 205, customers: 10, products: 6 });
    expect(shape(applied)).toBe(shape(seeded));
  });

  it('the compiled validator is the one of the schema that ships', () => {
    const generated = resolve(
      import.meta.dirname,
      '../../src/emulator/fixtures/fixture-validator.generated.mjs',
    );
    expect(readFileSync(generated, 'utf8'), 'run node scripts/fixture-validator.mjs').toBe(validatorSource());
  });
});
