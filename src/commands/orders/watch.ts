// billing orders watch: its description and its code.

import { getOrder } from '../../api/orders.js';
import { ORDER_ARG } from '../../cli/kit/help-text.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import {
  FINAL_STATUSES,
  isOrderStatus,
  ORDER_STATUSES,
  type OrderStatus,
  orderStatus,
} from '../../domain/orders.js';
import { BillingError, EXIT, UsageError } from '../../errors.js';
import { textColumn, write } from '../../format/index.js';
import { safeLine } from '../../format/terminal.js';
import { formatTimestamp } from '../../format/text.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export const watchVerb = verb({
  name: 'watch',
  place: 120,
  summary: "follow an order's status: prints it, then each change, by polling the order",
  args: [{ name: '<id>', help: ORDER_ARG }],
  flags: [
    {
      flag: '--until <status>',
      help: 'stop (exit 0) when the order reaches this status (default: complete, cancelled or rejected)',
      values: ORDER_STATUSES,
    },
    { flag: '--timeout <seconds>', help: 'give up after this long (exit 8)' },
    { flag: '--interval <seconds>', help: 'how often to read the order', default: '2' },
  ],
  examples: [
    'billing orders watch 177 --until active --timeout 600',
    'billing orders watch 177 -o ndjson | jq -r .status',
  ],
  help: '\nChanges between two reads are seen as one; for every event, use billing webhooks listen.\n',
  output: 'list',
  moves: 'none',
});

export default defineCommand(watchVerb, watch);

/**
 * Polls the order and prints its status, then each change. Ends (exit 0) when the order
 * reaches --until, or without --until a status where nothing more happens; exit 8 when
 * --timeout passes first. Changes between two polls are seen as one.
 */
export async function watch(rt: Runtime, [id]: string[], flags: OptionsOf<typeof watchVerb>): Promise<void> {
  const until = flags.until?.trim().toLowerCase();
  if (until !== undefined && !isOrderStatus(until)) {
    throw new UsageError(`unknown status "${flags.until}"`, {
      hint: `use one of: ${ORDER_STATUSES.join(', ')}`,
    });
  }
  const timeoutMs = flags.timeout === undefined ? undefined : seconds('--timeout', flags.timeout, 0.1);
  const intervalMs = seconds('--interval', flags.interval, 0.05);
  // After the checks of the command line: an invoice id is looked up by reading pages.
  const orderId = await orderIdOf(rt, id);
  const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  const client = await rt.client();
  // A timeout or Ctrl-C ends the list first (a JSON array stays whole), then is reported.
  let stopped: unknown;
  async function* changes(): AsyncGenerator<Change> {
    let last: string | null = null;
    try {
      for (;;) {
        const order = await getOrder(client, orderId, { signal: rt.signal });
        const status = orderStatus(order);
        if (status !== last) {
          const at = typeof order.status_updated_at === 'string' ? order.status_updated_at : '';
          yield {
            order_id: orderId,
            previous_status: last,
            status,
            status_updated_at: at,
            observed_at: new Date().toISOString(),
          };
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
    } catch (err) {
      stopped = err;
    }
  }
  // A person reads each change as a sentence the moment it is seen.
  const lines = async () => {
    for await (const c of changes()) {
      const change = c.previous_status === null ? c.status : `${c.previous_status} → ${c.status}`;
      rt.io.stdout.write(`${formatTimestamp(c.status_updated_at)}  order ${orderId}  ${safeLine(change)}\n`);
    }
  };
  await write(rt.output, { list: changes(), columns: WATCH_COLUMNS }, { screen: lines });
  if (stopped !== undefined) throw stopped;
}

/** Seconds given on the command line (decimals allowed) as milliseconds. */
function seconds(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(n) || n < min) {
    throw new UsageError(`${flag} must be a number of seconds of at least ${min}, got "${value}"`);
  }
  return Math.round(n * 1000);
}

interface Change {
  order_id: number;
  previous_status: string | null;
  status: string;
  status_updated_at: string;
  observed_at: string;
}

const WATCH_COLUMNS = ['order_id', 'previous_status', 'status', 'status_updated_at'].map((key) =>
  textColumn(key, key),
);

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
