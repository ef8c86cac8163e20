// What billing orders pause, resume and cancel share: the status before an action, and the one
// line that says what it changed.

import { getOrder } from '../../api/orders.js';
import type { Order } from '../../api/types.js';
import { writeRecord } from '../../cli/kit/result.js';
import { orderStatus } from '../../domain/orders.js';
import { safeLine } from '../../format/terminal.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

/** The status before an action, for the line that says what changed. */
export async function statusBefore(rt: Runtime, orderId: number): Promise<string> {
  return orderStatus(await getOrder(await rt.client(), orderId, { signal: rt.signal }));
}

/**
 * What an action changed. A person at a terminal reads one line, "Order 118: active → cancelled.
 * Nothing more is collected."; -o json (and csv, tsv) get the order after the action, read back
 * when the answer does not carry it, with the line on stderr.
 */
export async function report(
  rt: Runtime,
  orderId: number,
  before: string,
  order: Order | undefined,
  what: string,
  extras: Record<string, unknown> = {},
): Promise<void> {
  const shown = order ?? (await getOrder(await rt.client(), orderId, { signal: rt.signal }));
  const after = orderStatus(shown);
  const change =
    before && after && before !== after ? `${before} → ${after}` : after ? `still ${after}` : 'done';
  const line = safeLine(`Order ${orderId}: ${change}. ${what}`);
  let onScreen = false;
  const screen = async () => {
    onScreen = true;
    rt.io.stdout.write(`${line}\n`);
  };
  await writeRecord(rt, shown, 'order', extras, { screen });
  if (!onScreen) rt.info(line);
}
