// The setup the test files of test/commands/ share: an emulator started before a file's (or a
// describe block's) tests and stopped after them, and the demo seed's orders read once.

import { afterAll, beforeAll, expect } from 'vitest';
import type { EmulatorOptions } from '../../src/emulator/index.js';
import { parseNdjson, runCli } from './cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from './emulator.js';

/**
 * The emulator of the enclosing file or describe block: started in its beforeAll (then `ready`,
 * the block's own setup, runs on it), closed in its afterAll. What it returns stands for that
 * emulator, so a test reads `emu.url` and `emu.env()`.
 */
export function useEmulator(
  options: EmulatorOptions = {},
  ready?: (emu: TestEmulator) => Promise<unknown>,
): TestEmulator {
  let started: TestEmulator | undefined;
  beforeAll(async () => {
    started = await startTestEmulator(options);
    await ready?.(started);
  });
  afterAll(async () => {
    await started?.close();
  });
  const running = (): TestEmulator => {
    if (!started) throw new Error('the emulator starts in beforeAll: use it inside a test or a hook');
    return started;
  };
  return {
    get emulator() {
      return running().emulator;
    },
    get url() {
      return running().url;
    },
    env: (extra) => running().env(extra),
    close: () => running().close(),
  };
}

/** An order as the service sends it, the fields the finding tests read. */
export interface WireOrder {
  id: number;
  merchant_invoice_id: string;
  order_type: { value: string };
  status: { value: string };
  currency: string;
  initial_amount: string;
  customer_id: number;
  customer: { email: string | null; full_name: string; phone: string | null };
  created_at: string;
  status_updated_at: string;
}

export interface WirePayment {
  id: number;
  order_id: number;
  kind: string;
  status: string;
  created_at: string;
}

/** Every order of the demo seed (200), read page by page from the emulator's API. */
export async function demoOrders(emu: TestEmulator): Promise<WireOrder[]> {
  const orders: WireOrder[] = [];
  for (let page = 1; ; page++) {
    const res = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders?page=${page}&items=100`);
    orders.push(...(res.body.orders as WireOrder[]));
    if (page >= res.body.pagination.total_pages) break;
  }
  expect(orders.length).toBe(200);
  return orders;
}

/** A page of orders straight from the emulator's API (`query`: `?page=2&items=5`). */
export async function ordersPage(emu: TestEmulator, query: string) {
  const res = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders${query}`);
  expect(res.status).toBe(200);
  return res.body as { orders: { id: number }[]; pagination: { total_count: number; total_pages: number } };
}

/** `billing login` for the local environment of the emulator at `url`, the token read from stdin. */
export const loginArgs = (url: string) => [
  'login',
  '--env',
  'local',
  '--with-token',
  '--base-url',
  `${url}/api/v2`,
  '--base-url-v1',
  `${url}/api/v1`,
  '--profile',
  '1',
];

/** Every order as `billing orders list --all -o ndjson` prints it (the records as the service sent them). */
export async function listedOrders(emu: TestEmulator): Promise<WireOrder[]> {
  const r = await runCli(['orders', 'list', '--all', '-o', 'ndjson'], { env: emu.env(), timeoutMs: 30_000 });
  expect(r.code, r.stderr).toBe(0);
  return parseNdjson(r.stdout) as WireOrder[];
}

/** Runs `work` with the emulator's injected faults set to `faults`, and clears them after. */
export function faultsOn(emu: TestEmulator) {
  return async <T>(faults: unknown[], work: () => Promise<T>): Promise<T> => {
    await emulatorApi(emu.url, 'POST', '/__emulator/faults', { faults });
    try {
      return await work();
    } finally {
      await emulatorApi(emu.url, 'POST', '/__emulator/faults', { faults: [] });
    }
  };
}
