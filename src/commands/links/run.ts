// What billing links email, sms and url share: the order a link is for, the link, what was
// sent.

import { getOrder, sendEmailLink, sendSmsLink } from '../../api/orders.js';
import type { Order } from '../../api/types.js';
import { writeRecord } from '../../cli/kit/result.js';
import { orderStatus } from '../../domain/orders.js';
import { isRecord } from '../../domain/records.js';
import { UsageError } from '../../errors.js';
import { textColumn as column, write } from '../../format/index.js';
import { safeLine } from '../../format/terminal.js';
import type { BatchFlags } from '../../ops/batch/command.js';
import { checkedLink } from '../../ops/links/service.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import { previewBase, previewOf, writePreviews } from '../../ops/runtime/preview.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export const SENT_COLUMNS = [
  column('order_id', 'Order', undefined, { keep: true }),
  column('status', 'Status'),
  column('channel', 'Sent by'),
  column('to', 'To', undefined, { keep: true }),
  column('payment_link', 'Link', undefined, { keep: true }),
];

export async function send(
  rt: Runtime,
  id: string | undefined,
  channel: 'email' | 'sms',
  flags: BatchFlags,
): Promise<void> {
  const orderId = await orderIdOf(rt, id);
  if (flags.dryRun) {
    return writePreviews(rt, [previewOf(await previewBase(rt), `${channel}-link`, orderId)], true);
  }
  const client = await rt.client();
  const before = await payableStatus(rt, orderId);
  // A single send is noted per order and kind as a batch's is (./links/ledger.ts): one whose
  // answer was lost, or whose result could not be written, is not sent again unasked.
  const { startMessage } = await import('../../ops/links/ledger.js');
  const { mayHaveApplied } = await import('../../api/payments.js');
  const ledger = await startMessage(rt, orderId, channel, Boolean(rt.flags.resendInDoubt));
  const result = await (channel === 'email' ? sendEmailLink : sendSmsLink)(client, orderId, {
    signal: rt.signal,
    idempotencyKey: ledger.identity,
  }).catch(async (err: unknown) => {
    if (!mayHaveApplied(err)) await ledger.failed();
    throw err;
  });
  const order = await orderAfter(rt, orderId);
  const status = orderStatus(order);
  const message = isRecord(result.raw) && isRecord(result.raw.message) ? result.raw.message : {};
  const to = typeof message.to === 'string' ? message.to : '';
  const at = typeof message.sent_at === 'string' ? message.sent_at : new Date().toISOString();
  await (await import('../../ops/links/sent.js')).recordSent(rt, { order_id: orderId, channel, to, at });
  const found = linkOf(result.raw);
  const link =
    found === undefined
      ? undefined
      : await checkedLink(rt, 'payment_link', found, sentHint(orderId, channel));
  // The order, as `orders get` prints it, with what was sent under named keys; a person reads one row.
  const sent = { order_id: orderId, status, channel, to, payment_link: link ?? '' };
  await writeRecord(
    rt,
    order,
    'order',
    { payment_link: link, message: isRecord(result.raw) ? result.raw.message : undefined },
    {
      rows: { list: [sent], columns: SENT_COLUMNS },
      // The link whole, on a line of its own: a person copies it, a terminal makes it clickable.
      screen: async () => {
        await write(rt.output, {
          list: [sent],
          columns: SENT_COLUMNS.filter((c) => c.key !== 'payment_link'),
        });
        if (link) rt.io.stdout.write(`\n${safeLine(link)}\n`);
      },
    },
  );
  await ledger.sent();
  const how = channel === 'email' ? 'by email' : 'by SMS';
  rt.info(
    `Sent the payment link of order ${orderId} ${how}${to ? ` to ${to}` : ''}. ${statusChange(orderId, before, status)}`,
  );
}

/** The order after the action, read back as `orders get` shows it (the link may have moved it from draft). */
export async function orderAfter(rt: Runtime, orderId: number): Promise<Order> {
  return getOrder(await rt.client(), orderId, { signal: rt.signal });
}

/** Orders a link cannot be paid on: sending one would ask a customer to pay for nothing. */
export const NOTHING_TO_PAY = ['complete', 'cancelled', 'rejected'];

/** The order before a link is made; refused (exit 2, nothing sent) when there is nothing to pay. */
export async function payableOrder(rt: Runtime, orderId: number): Promise<Order> {
  const order = await getOrder(await rt.client(), orderId, { signal: rt.signal });
  const status = orderStatus(order);
  if (NOTHING_TO_PAY.includes(status)) {
    throw new UsageError(
      `order ${orderId} is ${status}: there is nothing to pay, so no link was made or sent`,
    );
  }
  return order;
}

export async function payableStatus(rt: Runtime, orderId: number): Promise<string> {
  return orderStatus(await payableOrder(rt, orderId));
}

/** Said with a link that fails its check: the message was sent all the same. */
export function sentHint(orderId: number, channel: 'email' | 'sms'): string {
  return `the service sent it to the customer by ${channel === 'email' ? 'email' : 'SMS'} all the same; tell the provider, and check order ${orderId}`;
}

/** The side effect of a link, said: a draft order becomes pending. */
export function statusChange(orderId: number, before: string, after: string): string {
  return before === after
    ? `Order ${orderId} is ${after}.`
    : `Order ${orderId} moved from ${before} to ${after} (a payment link makes a draft order pending).`;
}

export function linkOf(raw: unknown): string | undefined {
  if (!isRecord(raw)) return undefined;
  for (const key of ['payment_link', 'url', 'link']) {
    const value = raw[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}
