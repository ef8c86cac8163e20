// Issue 16 §5: a 2xx to a refund, capture or reversal is a success only when its record shows
// the move asked (kind, parent payment, amount in minor units, status "succeeded"). The built
// CLI runs against a hostile service that answers 201 with a record that says otherwise.
// The first lie of each move and the CSV batch run the built CLI as a process; the other runs
// check the same rule on another answer and run src/cli.ts's main() in this process with the
// service's environment (test/helpers/in-process.ts; docs/decisions.md, "Issue 35 §5, round 5:
// the money and safety files").

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Received } from '../api/fake-service.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { journalLines } from '../payments/helpers.js';
import { type Hostile, hostileServices, send } from './service.js';

const serve = hostileServices();

/** `h.cli`'s run in this process: the same environment, no input, no terminal. */
const inProcess = (h: Hostile, args: string[]) => runInProcess(args, { env: h.env() });

/** For lie `c`: the first lie (LIES[0]) runs the built CLI, the others run in this process. */
const runFor = (c: { name: string }) => (h: Hostile, args: string[]) =>
  c === LIES[0] ? h.cli(args) : inProcess(h, args);

/** Payment 1 is a 10.00 EUR debit of order 5, payment 2 a 10.00 EUR pre-authorisation of order 6. */
const PAYMENTS: Record<string, Record<string, unknown>> = {
  '1': { id: 1, order_id: 5, kind: 'debit', status: 'succeeded', amount: '10.00', currency: 'EUR' },
  '2': {
    id: 2,
    order_id: 6,
    kind: 'preauthorization',
    status: 'succeeded',
    amount: '10.00',
    currency: 'EUR',
  },
};

type Lie = (asked: { kind: string; parent: number; amount: string }) => Record<string, unknown>;

/** A service that reads like a real one but answers every money move 201 with the record `lie` makes. */
function lyingService(lie: Lie) {
  return (req: Received, res: Parameters<Parameters<typeof serve>[0]>[1]) => {
    const payment = /\/payments\/(\d+)$/.exec(req.path);
    if (req.method === 'GET' && payment) {
      const record = PAYMENTS[payment[1] as string];
      return record ? send(res, 200, { payment: record }) : send(res, 404, { error: 'not found' });
    }
    const list = /\/orders\/(\d+)\/payments$/.exec(req.path);
    if (req.method === 'GET' && list) {
      const payments = Object.values(PAYMENTS).filter((p) => String(p.order_id) === list[1]);
      return send(res, 200, { payments, pagination: { current_page: 1, total_pages: 1 } });
    }
    const move = /\/payments\/(\d+)\/(refund|capture|reverse)$/.exec(req.path);
    if (req.method === 'POST' && move) {
      const kind = { refund: 'refund', capture: 'capture', reverse: 'reversal' }[move[2] as string] as string;
      const asked = (JSON.parse(req.body || '{}') as { payment?: { amount?: string } }).payment?.amount;
      const parent = Number(move[1]);
      const amount = asked ?? (PAYMENTS[move[1] as string]?.amount as string);
      const record = { id: 77, order_id: 5, currency: 'EUR', created_at: '2026-01-01T00:00:00.000Z' };
      return send(res, 201, { payment: { ...record, ...lie({ kind, parent, amount }) } });
    }
    send(res, 404, { error: 'not found' });
  };
}

const honest: Lie = ({ kind, parent, amount }) => ({ kind, parent_id: parent, amount, status: 'succeeded' });

const LIES: { name: string; lie: Lie; said: string }[] = [
  {
    name: 'status failed',
    lie: (a) => ({ ...honest(a), status: 'failed' }),
    said: 'status "failed" (not succeeded)',
  },
  {
    name: 'status declined (a {value, label})',
    lie: (a) => ({ ...honest(a), status: { value: 'declined', label: 'Declined' } }),
    said: 'status {"value":"declined","label":"Declined"} (not succeeded)',
  },
  {
    name: 'amount 0.01 when 1.00 was asked',
    lie: (a) => ({ ...honest(a), amount: '0.01' }),
    said: 'amount "0.01" (not 1.00)',
  },
  { name: 'kind debit', lie: (a) => ({ ...honest(a), kind: 'debit' }), said: 'kind "debit"' },
  {
    name: 'another parent payment',
    lie: (a) => ({ ...honest(a), parent_id: 999 }),
    said: 'parent payment 999 (not',
  },
  { name: 'no status at all', lie: (a) => ({ ...honest(a), status: undefined }), said: 'status missing' },
];

describe('a 201 whose record is not the refund asked', () => {
  for (const c of LIES) {
    it(`${c.name}: exit 8 with what the service said; nothing says Refunded`, async () => {
      const h = await serve(lyingService(c.lie));
      for (const output of [[], ['-o', 'json']]) {
        const r = await runFor(c)(h, ['payments', 'refund', '1', '--amount', '1.00', ...output]);
        expect(r.code, r.stderr).toBe(8);
        expect(r.stderr).toContain('the service answered 201 to the refund of 1.00 on payment 1');
        expect(r.stderr).toContain(output.length === 0 ? c.said : JSON.stringify(c.said).slice(1, -1));
        if (output.length === 0)
          expect(r.stderr).toContain('see "billing payments get 1" before trying again');
        expect(r.stdout).toBe('');
        expect(r.stderr).not.toMatch(/Refunded/);
      }
    });
  }

  it('an honest 201 still refunds (the check is not a refusal of everything)', async () => {
    const h = await serve(lyingService(honest));
    const r = await inProcess(h, ['payments', 'refund', '1', '--amount', '1.00']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Refunded 1.00 EUR of payment 1.');
  });

  it('a 201 with no record at all is exit 8, not "Refunded the amount"', async () => {
    const h = await serve((req, res) =>
      req.method === 'POST' ? send(res, 201, { ok: true }) : lyingService(honest)(req, res),
    );
    const r = await inProcess(h, ['payments', 'refund', '1', '--amount', '1.00']);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('without a payment record, so it is not confirmed');
    expect(r.stderr).not.toMatch(/Refunded/);
  });

  it('after a 502, a refund found among the order payments but pending is exit 8 and not sent again', async () => {
    const refund = { id: 78, order_id: 5, kind: 'refund', parent_id: 1, amount: '1.00', status: 'pending' };
    let posted = 0;
    const h = await serve((req, res) => {
      if (req.method === 'POST') {
        posted++;
        PAYMENTS['78'] = refund;
        return send(res, 502, { error: 'bad gateway' });
      }
      return lyingService(honest)(req, res);
    });
    try {
      const r = await inProcess(h, ['payments', 'refund', '1', '--amount', '1.00']);
      expect(r.code).toBe(8);
      expect(r.stderr).toContain(
        'the payments of order 5 show it as payment 78 whose status "pending" (not succeeded)',
      );
      expect(posted).toBe(1);
      expect(r.stderr).not.toMatch(/Refunded/);
    } finally {
      delete PAYMENTS['78'];
    }
  });

  it('a full refund expects what was left (10.00), and 9.99 is not it', async () => {
    const h = await serve(lyingService((a) => ({ ...honest(a), amount: '9.99' })));
    const r = await inProcess(h, ['payments', 'refund', '1']);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('the refund of 10.00 on payment 1');
    expect(r.stderr).toContain('amount "9.99" (not 10.00)');
  });
});

describe('the same for a capture and a reversal', () => {
  for (const c of LIES) {
    it(`capture, ${c.name}: exit 8, nothing says Captured`, async () => {
      const h = await serve(lyingService(c.lie));
      const r = await runFor(c)(h, ['payments', 'capture', '2', '--amount', '1.00']);
      expect(r.code, r.stderr).toBe(8);
      expect(r.stderr).toContain('to the capture of 1.00 on payment 2');
      expect(r.stderr).toContain(c.said);
      expect(r.stdout + r.stderr).not.toMatch(/Captured/);
    });
  }

  it('a full capture expects the whole pre-authorisation (10.00)', async () => {
    const h = await serve(lyingService((a) => ({ ...honest(a), amount: '0.01' })));
    const r = await inProcess(h, ['payments', 'capture', '2']);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('amount "0.01" (not 10.00)');
  });

  for (const c of LIES.filter((l) => !l.name.startsWith('amount'))) {
    it(`reversal, ${c.name}: exit 8, nothing says Released`, async () => {
      const h = await serve(lyingService(c.lie));
      const r = await runFor(c)(h, ['payments', 'reverse', '2']);
      expect(r.code, r.stderr).toBe(8);
      expect(r.stderr).toContain('to the reversal of 10.00 on payment 2');
      expect(r.stderr).toContain(c.said);
      expect(r.stdout + r.stderr).not.toMatch(/Released/);
    });
  }

  it('a reversal of 0.01 of a 10.00 pre-authorisation is exit 8', async () => {
    const h = await serve(lyingService((a) => ({ ...honest(a), amount: '0.01' })));
    const r = await inProcess(h, ['payments', 'reverse', '2']);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('amount "0.01" (not 10.00)');
  });

  it('honest answers capture and release', async () => {
    const h = await serve(lyingService(honest));
    const captured = await inProcess(h, ['payments', 'capture', '2', '--amount', '1.00']);
    expect(captured.code, captured.stderr).toBe(0);
    expect(captured.stderr).toContain('Captured 1.00 EUR of pre-authorisation 2.');
    const released = await inProcess(h, ['payments', 'reverse', '2']);
    expect(released.code, released.stderr).toBe(0);
    expect(released.stderr).toContain('Released 10.00 EUR of pre-authorisation 2.');
  });
});

describe('a bulk run against the same service', () => {
  it('marks no such row refunded in its CSV and exits non-zero', async () => {
    // The lie depends on the row: 1.00 answered failed, 2.00 answered as 0.01, 3.00 as a debit.
    const lies: Record<string, Lie> = {
      '1.00': (a) => ({ ...honest(a), status: 'failed' }),
      '2.00': (a) => ({ ...honest(a), amount: '0.01' }),
      '3.00': (a) => ({ ...honest(a), kind: 'debit' }),
    };
    const h = await serve((req, res) => {
      const asked = /"amount":"([\d.]+)"/.exec(req.body)?.[1] ?? '';
      return lyingService(lies[asked] ?? honest)(req, res);
    });
    const dir = tempDir();
    const file = join(dir, 'refunds.csv');
    writeFileSync(file, 'payment_id,amount\n1,1.00\n1,2.00\n1,3.00\n1,0.50\n');
    const r = await h.cli(['payments', 'refund', '--file', file, '-o', 'csv']);
    expect(r.code, r.stderr).not.toBe(0);
    const rows = r.stdout.trim().split('\n');
    const row = (amount: string) => rows.find((l) => l.startsWith(`1,${amount},`)) ?? '';
    for (const amount of ['1.00', '2.00', '3.00']) {
      expect(row(amount), r.stdout).not.toBe('');
      expect(row(amount)).not.toMatch(/,refunded,/);
    }
    // The honest row is refunded: the check does not fail the whole batch.
    expect(row('0.50')).toMatch(/,refunded,/);
    // Nor does the journal call them refunded, so a re-run never takes them as done.
    const journal = journalLines(`${file}.journal`);
    expect(journal.some((l) => l.amount === '0.50' && l.state === 'refunded')).toBe(true);
    for (const amount of ['1.00', '2.00', '3.00']) {
      expect(journal.filter((l) => l.amount === amount && l.state === 'refunded')).toEqual([]);
    }
    // They are in doubt: journaled so, never done nor failed, so the next run checks them
    // against the order's payments; the run ends with exit 10 naming them.
    expect(r.code).toBe(10);
    for (const amount of ['1.00', '2.00', '3.00']) {
      expect(row(amount)).toMatch(/,in_doubt,/);
      expect(journal.some((l) => l.amount === amount && l.state === 'in_doubt')).toBe(true);
      expect(r.stderr).toMatch(new RegExp(`in doubt: line \\d+, payment 1, ${amount.replace('.', '\\.')}`));
    }
  });
});

/**
 * A service that keeps what it made: each money move is answered 201 with the record `lie`
 * makes, and that record is among the order's payments from then on, as a real service's is.
 */
function keepingService(lie: Lie) {
  const made: Record<string, unknown>[] = [];
  const handler = (req: Received, res: Parameters<Parameters<typeof serve>[0]>[1]) => {
    const list = /\/orders\/(\d+)\/payments$/.exec(req.path);
    if (req.method === 'GET' && list) {
      const payments = [...Object.values(PAYMENTS), ...made].filter((p) => String(p.order_id) === list[1]);
      return send(res, 200, { payments, pagination: { current_page: 1, total_pages: 1 } });
    }
    const move = /\/payments\/(\d+)\/refund$/.exec(req.path);
    if (req.method === 'POST' && move) {
      const amount =
        (JSON.parse(req.body || '{}') as { payment?: { amount?: string } }).payment?.amount ?? '';
      const record = {
        id: 80 + made.length,
        order_id: 5,
        currency: 'EUR',
        created_at: '2026-01-01T00:00:00.000Z',
        ...lie({ kind: 'refund', parent: Number(move[1]), amount }),
      };
      made.push(record);
      return send(res, 201, { payment: record });
    }
    return lyingService(honest)(req, res);
  };
  return { handler, made };
}

describe('a row in doubt, on the next run (issue 16 §5)', () => {
  const posts = (h: { service: { received: Received[] } }) =>
    h.service.received.filter((r) => r.method === 'POST').length;

  it('a refund answered as 0.01 for 1.00 is not sent again over it: still in doubt, exit 10', async () => {
    const { handler } = keepingService((a) => ({ ...honest(a), amount: '0.01' }));
    const h = await serve(handler);
    const file = join(tempDir(), 'refunds.csv');
    writeFileSync(file, 'payment_id,amount\n1,1.00\n');
    const first = await inProcess(h, ['payments', 'refund', '--file', file]);
    expect(first.code, first.stderr).toBe(10);
    const again = await inProcess(h, ['payments', 'refund', '--file', file]);
    expect(again.code, again.stderr).toBe(10);
    expect(again.stderr).toContain('refund 80 of 0.01');
    expect(again.stderr).toContain('not sent again');
    expect(posts(h)).toBe(1);
    expect(journalLines(`${file}.journal`).filter((l) => l.state === 'refunded')).toEqual([]);
  });

  it('a refund whose amount came as a JSON number stays in doubt on the re-run (exit 10, not failed)', async () => {
    const { handler } = keepingService((a) => ({ ...honest(a), amount: 1 }));
    const h = await serve(handler);
    const file = join(tempDir(), 'refunds.csv');
    writeFileSync(file, 'payment_id,amount\n1,1.00\n');
    expect((await inProcess(h, ['payments', 'refund', '--file', file])).code).toBe(10);
    const again = await inProcess(h, ['payments', 'refund', '--file', file, '-o', 'csv']);
    expect(again.code, again.stderr).toBe(10);
    expect(again.stdout).toMatch(/^1,1\.00,.*,in_doubt,/m);
    expect(posts(h)).toBe(1);
  });

  it('a refund record in another currency is exit 8; nothing says Refunded', async () => {
    const h = await serve(lyingService((a) => ({ ...honest(a), currency: 'GBP' })));
    const r = await inProcess(h, ['payments', 'refund', '1', '--amount', '1.00', '--yes']);
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toContain('currency "GBP" (not EUR)');
    expect(r.stderr).not.toContain('Refunded');
  });
});
