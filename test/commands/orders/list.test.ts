import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_EMULATOR } from '../../../src/domain/local.js';
import { type FakeService, json, startService } from '../../api/fake-service.js';
import { BIN, baseEnv, parseNdjson, runCli } from '../../helpers/cli.js';
import { emulatorApi, startTestEmulator } from '../../helpers/emulator.js';
import { runInProcess } from '../../helpers/in-process.js';
import { demoOrders, ordersPage, useEmulator, type WireOrder } from '../../helpers/suite.js';

const emu = useEmulator({ seed: 'demo' });
const ESC = '\u001b[';

const cli = (args: string[], extra?: Record<string, string | undefined>, input?: string) =>
  runCli(args, { env: emu.env(extra), input });

const apiPage = (query: string) => ordersPage(emu, query);

describe('orders list', () => {
  it('prints one TSV line per order, no header and no colour, when piped', async () => {
    const r = await cli(['orders', 'list']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(20);
    expect(r.stdout).not.toContain(ESC);
    const page = await apiPage('');
    expect(lines.map((l) => Number(l.split('\t')[0]))).toEqual(page.orders.map((o) => o.id));
    expect(lines[0]?.split('\t').length).toBeGreaterThanOrEqual(6);
  });

  it('prints the records exactly as the service returned them with -o json', async () => {
    const r = await cli(['orders', 'list', '--page', '2', '--items', '5', '-o', 'json']);
    expect(r.code).toBe(0);
    const page = await apiPage('?page=2&items=5');
    expect(JSON.parse(r.stdout)).toEqual(page.orders);
  });

  it('reads every page with --all and streams NDJSON', async () => {
    const r = await cli(['orders', 'list', '--all', '--items', '50', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    const records = parseNdjson(r.stdout) as { id: number }[];
    const { pagination } = await apiPage('');
    expect(records).toHaveLength(pagination.total_count);
    expect(new Set(records.map((o) => o.id)).size).toBe(records.length);
    const ids = records.map((o) => o.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('reads with many pages in flight without warnings on stderr', async () => {
    const r = await cli(['orders', 'list', '--all', '--items', '5', '--concurrency', '16', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const ids = (parseNdjson(r.stdout) as { id: number }[]).map((o) => o.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('filters by status on the client and honours --limit', async () => {
    const r = await cli(['orders', 'list', '--status', 'active', '--limit', '7', '-o', 'json']);
    expect(r.code).toBe(0);
    const records = JSON.parse(r.stdout) as { status: { value: string } }[];
    expect(records).toHaveLength(7);
    expect(records.every((o) => o.status.value === 'active')).toBe(true);
  });

  it('writes CSV with a header row', async () => {
    const r = await cli(['orders', 'list', '--items', '3', '-o', 'csv']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^id,/);
  });

  it('rejects an unknown status, page 0 and a non-numeric items before sending', async () => {
    // The first as the process; the others, the same parse, in this process (test/helpers/in-process.ts).
    for (const [at, args] of [
      ['--status', 'bogus'],
      ['--page', '0'],
      ['--items', 'abc'],
      ['--page', 'x'],
    ].entries()) {
      const r =
        at === 0
          ? await cli(['orders', 'list', ...args])
          : await runInProcess(['orders', 'list', ...args], { env: emu.env() });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stdout).toBe('');
    }
  });

  it('answers a page past the last with exit 5', async () => {
    const r = await cli(['orders', 'list', '--page', '999']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^error: /);
  });

  it('caps --items at 100 with a warning', async () => {
    const r = await cli(['orders', 'list', '--items', '500', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect(parseNdjson(r.stdout)).toHaveLength(100);
    expect(r.stderr).toContain('at most 100');
  });
});

describe('orders list page sizes', () => {
  const TOTAL = 450;
  let service: FakeService;

  beforeAll(async () => {
    service = await startService((req, res) => {
      const page = Number(req.query.get('page') ?? 1);
      const items = Math.min(100, Number(req.query.get('items') ?? 20));
      const pages = Math.ceil(TOTAL / items);
      const first = (page - 1) * items;
      const orders = Array.from({ length: Math.max(0, Math.min(items, TOTAL - first)) }, (_, i) => ({
        id: TOTAL - first - i,
        status: { value: (first + i) % 3 === 0 ? 'active' : 'pending' },
      }));
      json(res, 200, {
        orders,
        pagination: { current_page: page, per_page: items, total_pages: pages, total_count: TOTAL },
      });
    });
  });
  afterAll(async () => {
    await service.close();
  });

  /** The pages read: the first test runs the built CLI, the others this process (test/helpers/in-process.ts). */
  async function list(args: string[], run: typeof runCli = runInProcess) {
    service.received.length = 0;
    const r = await run(['orders', 'list', ...args], {
      env: baseEnv({
        BILLING_ENV: 'local',
        BILLING_BASE_URL: service.baseUrl,
        BILLING_BASE_URL_V1: service.baseUrlV1,
        BILLING_API_TOKEN: LOCAL_EMULATOR.token,
        BILLING_PROFILE_ID: '1',
      }),
    });
    const pages = service.received
      .map((q) => `${q.query.get('page')}:${q.query.get('items')}`)
      .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
    return { ...r, pages };
  }
  it('--all reads pages of 100 when --items is not given', async () => {
    const r = await list(['--all', '-o', 'ndjson'], runCli);
    expect(r.code).toBe(0);
    expect(parseNdjson(r.stdout)).toHaveLength(TOTAL);
    expect(r.pages).toEqual(['1:100', '2:100', '3:100', '4:100', '5:100']);
  });

  it('--all --items 50 keeps the size asked for', async () => {
    const r = await list(['--all', '--items', '50', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect(parseNdjson(r.stdout)).toHaveLength(TOTAL);
    expect(r.pages).toHaveLength(9);
    expect(r.pages.every((p) => p.endsWith(':50'))).toBe(true);
  });

  it('--status reads pages of 100', async () => {
    const r = await list(['--status', 'active', '--all', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect(parseNdjson(r.stdout)).toHaveLength(150);
    expect(r.pages.every((p) => p.endsWith(':100'))).toBe(true);
  });

  it('--all --limit 150 reads the two pages it needs and no more', async () => {
    const r = await list(['--all', '--limit', '150', '--concurrency', '8', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect((parseNdjson(r.stdout) as { id: number }[]).map((o) => o.id)).toEqual(
      Array.from({ length: 150 }, (_, i) => TOTAL - i),
    );
    expect(r.pages).toEqual(['1:100', '2:100']);
  });

  it('--all --limit 30 reads one page', async () => {
    const r = await list(['--all', '--limit', '30', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect(parseNdjson(r.stdout)).toHaveLength(30);
    expect(r.pages).toEqual(['1:100']);
  });

  it('--all --page 3 --limit 220 reads pages 3 to 5', async () => {
    const r = await list(['--all', '--page', '3', '--limit', '220', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect(parseNdjson(r.stdout)).toHaveLength(220);
    expect(r.pages).toEqual(['3:100', '4:100', '5:100']);
  });
});

describe("finding among the demo seed's 200 orders", () => {
  let orders: WireOrder[];
  const emu = useEmulator({ seed: 'demo' }, async (started) => (orders = await demoOrders(started)));

  const cli = (args: string[]) => runCli(args, { env: emu.env(), timeoutMs: 60_000 });
  // What each filter keeps is decided in this process (test/helpers/in-process.ts); the first test
  // of the filters, a refusal, --query and the streaming test run the built CLI.
  const here = (args: string[]) => runInProcess(args, { env: emu.env() });

  async function listIds(args: string[], run = here): Promise<{ ids: number[]; stderr: string }> {
    const r = await run(['orders', 'list', ...args, '-o', 'ndjson']);
    expect(r.stderr).not.toContain('error');
    expect(r.code).toBe(0);
    return { ids: (parseNdjson(r.stdout) as WireOrder[]).map((o) => o.id), stderr: r.stderr };
  }

  const idsOf = (keep: (o: WireOrder) => boolean) => orders.filter(keep).map((o) => o.id);
  const cents = (amount: string) => Math.round(Number(amount) * 100);

  describe('orders list filters', () => {
    it('--status, repeated and comma-separated, keeps any of them and says how many pages it read', async () => {
      const want = idsOf((o) => ['failed', 'suspended'].includes(o.status.value));
      expect(want.length).toBeGreaterThan(1);
      const repeated = await listIds(['--status', 'failed', '--status', 'suspended'], cli);
      const comma = await listIds(['--status', 'FAILED,suspended'], cli);
      expect(repeated.ids).toEqual(want);
      expect(comma.ids).toEqual(want);
      expect(repeated.stderr).toContain(`Read 2 pages of orders (200); ${want.length} matched.`);
    });

    it('--status with an unknown status is exit 2 naming it, before anything is read', async () => {
      const r = await cli(['orders', 'list', '--status', 'failed,paid']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('unknown status "paid"');
      expect(r.stdout).toBe('');
    });

    it('--type, --currency and --customer', async () => {
      expect((await listIds(['--type', 'subscription'])).ids).toEqual(
        idsOf((o) => o.order_type.value === 'subscription'),
      );
      expect((await listIds(['--currency', 'gbp'])).ids).toEqual(idsOf((o) => o.currency === 'GBP'));
      const customer = orders[0]!.customer_id;
      expect((await listIds(['--customer', String(customer)])).ids).toEqual(
        idsOf((o) => o.customer_id === customer),
      );
    });

    it('--email (any case) and --name (part of the name, any case)', async () => {
      const want = idsOf((o) => o.customer.email === 'james.obrien@example.com');
      expect(want.length).toBeGreaterThan(3);
      expect((await listIds(['--email', 'James.OBrien@example.com'])).ids).toEqual(want);
      expect((await listIds(['--name', "o'BRI"])).ids).toEqual(want);
      expect((await listIds(['--email', 'nobody@example.com'])).ids).toEqual([]);
    });

    it('--invoice exact, and a prefix with *', async () => {
      expect((await listIds(['--invoice', 'INV-000123'])).ids).toEqual(
        idsOf((o) => o.merchant_invoice_id === 'INV-000123'),
      );
      const prefixed = idsOf((o) => o.merchant_invoice_id.startsWith('INV-00012'));
      expect(prefixed).toHaveLength(10);
      expect((await listIds(['--invoice', 'INV-00012*'])).ids).toEqual(prefixed);
    });

    it('--invoice in any case, as orders get INV-… takes it (exact and prefix)', async () => {
      const one = idsOf((o) => o.merchant_invoice_id === 'INV-000174');
      expect(one).toHaveLength(1);
      expect((await listIds(['--invoice', 'inv-000174'])).ids).toEqual(one);
      expect((await listIds(['--invoice', 'Inv-000174'])).ids).toEqual(one);
      const prefixed = idsOf((o) => o.merchant_invoice_id.startsWith('INV-00012'));
      expect((await listIds(['--invoice', 'inv-00012*'])).ids).toEqual(prefixed);
      const got = await here(['orders', 'get', 'inv-000174', '-o', 'json']);
      expect(JSON.parse(got.stdout).id).toBe(one[0]);
    });

    it('--since/--until on created_at, or on status_updated_at with --by-status-date', async () => {
      const day = orders[100]!.created_at.slice(0, 10);
      const last = orders[50]!.created_at.slice(0, 10);
      const start = Date.parse(`${day}T00:00:00Z`);
      const end = Date.parse(`${last}T00:00:00Z`) + 86_400_000;
      const within = (iso: string) => Date.parse(iso) >= start && Date.parse(iso) < end;
      expect((await listIds(['--since', day, '--until', last])).ids).toEqual(
        idsOf((o) => within(o.created_at)),
      );
      const byStatus = idsOf((o) => within(o.status_updated_at));
      expect(byStatus).not.toEqual(idsOf((o) => within(o.created_at)));
      expect((await listIds(['--since', day, '--until', last, '--by-status-date'])).ids).toEqual(byStatus);
      // The day-first form every date flag takes.
      const [y, m, d] = day.split('-');
      expect((await listIds(['--since', `${d}/${m}/${y}`])).ids).toEqual(
        idsOf((o) => Date.parse(o.created_at) >= start),
      );
    });

    it('--min-amount/--max-amount compare exact decimals', async () => {
      const amount = orders.find((o) => o.initial_amount === '18.50') ? '18.50' : orders[0]!.initial_amount;
      expect((await listIds(['--min-amount', amount, '--max-amount', amount])).ids).toEqual(
        idsOf((o) => o.initial_amount === amount),
      );
      expect((await listIds(['--min-amount', '100'])).ids).toEqual(
        idsOf((o) => cents(o.initial_amount) >= 10_000),
      );
      const bad = await here(['orders', 'list', '--min-amount', '1.234']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--min-amount');
    });

    it('all the filters combine (AND), and --limit stops early', async () => {
      const since = orders[150]!.created_at.slice(0, 10);
      const want = idsOf(
        (o) =>
          ['failed', 'suspended', 'active'].includes(o.status.value) &&
          o.currency === 'EUR' &&
          o.customer.full_name.toLowerCase().includes('o') &&
          o.merchant_invoice_id.startsWith('INV-') &&
          Date.parse(o.created_at) >= Date.parse(`${since}T00:00:00Z`) &&
          cents(o.initial_amount) >= 1000 &&
          cents(o.initial_amount) <= 100_000,
      );
      expect(want.length).toBeGreaterThan(1);
      const args = [
        '--status',
        'failed,suspended',
        '--status',
        'active',
        '--currency',
        'EUR',
        '--name',
        'o',
        '--invoice',
        'INV-*',
        '--since',
        since,
        // With --status the dates are the status's (issue 28 §3); these are the creation's.
        '--by-created-date',
        '--min-amount',
        '10',
        '--max-amount',
        '1000.00',
      ];
      expect((await listIds(args)).ids).toEqual(want);
      const limited = await listIds([...args, '--limit', '1']);
      expect(limited.ids).toEqual(want.slice(0, 1));
      expect(limited.stderr).toContain('then stopped');
    });
  });

  describe('--query over every page, and the fields behind it', () => {
    it('--page N with --query starts where the plain page N starts: pages of the size the list shows', async () => {
      const plain = await cli(['orders', 'list', '--page', '2', '-o', 'json']);
      const page2 = (JSON.parse(plain.stdout) as WireOrder[]).map((o) => o.id);
      expect(page2).toEqual(orders.slice(20, 40).map((o) => o.id));
      const queried = await cli(['orders', 'list', '--page', '2', '--query', '[].id', '-o', 'json']);
      expect(queried.code, queried.stderr).toBe(0);
      expect(JSON.parse(queried.stdout)).toEqual(orders.slice(20).map((o) => o.id));
      const items = await cli([
        'orders',
        'list',
        '--page',
        '3',
        '--items',
        '10',
        '--query',
        '[].id',
        '-o',
        'json',
      ]);
      expect(JSON.parse(items.stdout)).toEqual(orders.slice(20).map((o) => o.id));
      const filtered = await listIds(['--page', '2', '--currency', 'EUR']);
      expect(filtered.ids).toEqual(
        idsOf((o) => o.currency === 'EUR').filter((id) => orders.slice(20).some((o) => o.id === id)),
      );
    });

    it('without --all, --query reads every page before applying itself', async () => {
      const r = await cli(['orders', 'list', '--query', "[?status.value=='failed'].id", '-o', 'json']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(idsOf((o) => o.status.value === 'failed'));
      expect(r.stderr).toContain('Read 2 pages of orders (200), then applied --query.');
    });
  });

  describe('a filter streams its matches as their pages arrive', () => {
    it('the first match is on stdout long before the last page is read', async () => {
      const slow = await startTestEmulator({ latencyMs: 120 });
      try {
        // 1,000 orders of one customer: every page holds matches; read one page at a time.
        await emulatorApi(slow.url, 'POST', '/__emulator/bulk-orders', { count: 1000 });
        const page = await emulatorApi(slow.url, 'GET', '/api/v2/profiles/1/orders?items=1');
        const email = page.body.orders[0].customer.email as string;
        const started = Date.now();
        const child = spawn(
          process.execPath,
          [BIN, 'orders', 'list', '--email', email, '--concurrency', '1', '-o', 'ndjson'],
          { env: slow.env() as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let firstAt = 0;
        let lines = 0;
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          firstAt ||= Date.now();
          lines += chunk.split('\n').length - 1;
        });
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk;
        });
        const killer = setTimeout(() => child.kill(), 60_000);
        const code = await new Promise<number | null>((done) => child.on('close', done));
        clearTimeout(killer);
        const endedAt = Date.now();
        expect(code).toBe(0);
        expect(lines).toBe(1000);
        expect(stderr).toContain('Read 10 pages of orders (1000); 1000 matched.');
        // 10 pages one after another at 120 ms each: the first page's matches come ~1 s early.
        expect(endedAt - firstAt).toBeGreaterThan(700);
        expect(firstAt - started).toBeLessThan(endedAt - started - 700);
      } finally {
        await slow.close();
      }
    });
  });
});
