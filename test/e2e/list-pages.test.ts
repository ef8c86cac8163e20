// Which pages `orders list` asks for: --all and --status read pages of 100 unless --items says
// otherwise, and --limit asks for no page past the ones it needs. A small service over real
// HTTP records every request.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { type FakeService, json, startService } from '../api/fake-service.js';
import { baseEnv, parseNdjson, runCli } from '../helpers/cli.js';

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

async function list(args: string[]) {
  service.received.length = 0;
  const r = await runCli(['orders', 'list', ...args], {
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

describe('orders list page sizes', () => {
  it('--all reads pages of 100 when --items is not given', async () => {
    const r = await list(['--all', '-o', 'ndjson']);
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
