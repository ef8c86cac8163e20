// billing orders schedule | pause | resume | cancel | watch

import { BillingError, EXIT, UsageError } from '../api/errors.js';
import { cancelOrder, getOrder, listScheduledPayments, pauseOrder, resumeOrder } from '../api/orders.js';
import type { Order } from '../api/types.js';
import { FINAL_STATUSES, isOrderStatus, ORDER_STATUSES, type OrderStatus } from '../domain/orders.js';
import { csvField } from '../format/delimited.js';
import { writeOne } from '../format/index.js';
import { safeLine } from '../format/terminal.js';
import * as parse from './args.js';
import { confirmInProduction, confirmMoneyMove } from './confirm.js';
import { writeResult } from './result.js';
import type { Runtime } from './runtime.js';
import { writeSchedule } from './schedule.js';

function statusOf(order: Order | undefined): string {
  const status = (order as { status?: unknown } | undefined)?.status;
  if (typeof status === 'string') return status;
  const value = (status as { value?: unknown } | undefined)?.value;
  return typeof value === 'string' ? value : '';
}

export async function schedule(rt: Runtime, [id]: string[]): Promise<void> {
  const orderId = parse.recordId('order', id ?? '');
  const client = await rt.client();
  const entries = await listScheduledPayments(client, orderId, { signal: rt.signal });
  if (entries.length === 0 && rt.format === 'table') {
    rt.info(`Order ${orderId} has no scheduled payments (a single payment order has none).`);
    return;
  }
  await writeSchedule(rt, entries, entries);
}

async function report(rt: Runtime, raw: unknown, order: Order | undefined, message: string): Promise<void> {
  await writeResult(rt, raw, async () => {
    if (order) await writeOne(order, 'order', rt.output);
  });
  rt.info(message);
}

export async function pause(rt: Runtime, [id]: string[]): Promise<void> {
  const orderId = parse.recordId('order', id ?? '');
  await confirmInProduction(rt, `pause order ${orderId}`);
  const result = await pauseOrder(await rt.client(), orderId, { signal: rt.signal });
  await report(
    rt,
    result.raw,
    result.order,
    `Order ${orderId} paused: payments that fall due while it is paused are not charged.`,
  );
}

export async function resume(rt: Runtime, [id]: string[], flags: { restartDate?: string }): Promise<void> {
  const orderId = parse.recordId('order', id ?? '');
  const restartDate =
    flags.restartDate === undefined ? undefined : parse.dayOrTime('--restart-date', flags.restartDate);
  await confirmInProduction(rt, `resume order ${orderId}${restartDate ? ` on ${restartDate}` : ''}`);
  const result = await resumeOrder(await rt.client(), orderId, { restartDate, signal: rt.signal });
  const later = typeof result.restartDate === 'string' && statusOf(result.order) === 'paused';
  await report(
    rt,
    result.raw,
    result.order,
    later
      ? `Order ${orderId} stays paused until ${result.restartDate}, then resumes on its billing cycle.`
      : `Order ${orderId} resumed on its billing cycle.`,
  );
}

export async function cancel(rt: Runtime, [id]: string[]): Promise<void> {
  const orderId = parse.recordId('order', id ?? '');
  await confirmMoneyMove(rt, { action: 'cancel', subject: `order ${orderId}` });
  const result = await cancelOrder(await rt.client(), orderId, { signal: rt.signal });
  await report(rt, result.raw, result.order, `Order ${orderId} cancelled: nothing more is collected.`);
}

interface WatchFlags {
  until?: string;
  timeout?: string;
  interval: string;
}

/** Seconds given on the command line (decimals allowed) as milliseconds. */
function seconds(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(n) || n < min) {
    throw new UsageError(`${flag} must be a number of seconds of at least ${min}, got "${value}"`);
  }
  return Math.round(n * 1000);
}

/**
 * Polls the order and prints its status, then each change. Ends (exit 0) when the order
 * reaches --until, or without --until a status where nothing more happens; exit 8 when
 * --timeout passes first. Changes between two polls are seen as one.
 */
export async function watch(rt: Runtime, [id]: string[], flags: WatchFlags): Promise<void> {
  const orderId = parse.recordId('order', id ?? '');
  const until = flags.until?.trim().toLowerCase();
  if (until !== undefined && !isOrderStatus(until)) {
    throw new UsageError(`unknown status "${flags.until}"`, {
      hint: `use one of: ${ORDER_STATUSES.join(', ')}`,
    });
  }
  const timeoutMs = flags.timeout === undefined ? undefined : seconds('--timeout', flags.timeout, 0.1);
  const intervalMs = seconds('--interval', flags.interval, 0.05);
  const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  const client = await rt.client();
  const line = changeWriter(rt, orderId);
  let last: string | undefined;
  for (;;) {
    const order = await getOrder(client, orderId, { signal: rt.signal });
    const status = statusOf(order);
    if (status !== last) {
      line(last ?? null, status, order);
      last = status;
    }
    if (until ? status === until : FINAL_STATUSES.includes(status as OrderStatus)) return;
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new BillingError(
        'timeout',
        EXIT.unavailable,
        `timed out after ${flags.timeout} s: order ${orderId} is ${status}${until ? `, not ${until}` : ''}`,
      );
    }
    await sleep(Math.min(intervalMs, left), rt.signal);
  }
}

function changeWriter(rt: Runtime, orderId: number) {
  let headed = false;
  return (from: string | null, to: string, order: Order) => {
    const at = typeof order.status_updated_at === 'string' ? order.status_updated_at : '';
    const record = { order_id: orderId, previous_status: from, status: to, status_updated_at: at };
    switch (rt.format) {
      case 'json':
      case 'ndjson':
        rt.io.stdout.write(`${JSON.stringify({ ...record, observed_at: new Date().toISOString() })}\n`);
        return;
      case 'csv':
        if (!headed) rt.io.stdout.write('order_id,previous_status,status,status_updated_at\n');
        headed = true;
        rt.io.stdout.write(
          `${[String(orderId), from ?? '', to, at].map((v) => csvField(v, rt.flags.csvRaw)).join(',')}\n`,
        );
        return;
      case 'tsv':
        rt.io.stdout.write(`${[String(orderId), from ?? '', to, at].map(safeLine).join('\t')}\n`);
        return;
      case 'table':
        rt.io.stdout.write(
          safeLine(
            `${at.slice(0, 16).replace('T', ' ')}  order ${orderId}  ${from === null ? to : `${from} → ${to}`}`,
          ) + '\n',
        );
    }
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
