// billing webhooks trigger: its description and its code.

import { ApiError, classifyStatus } from '../../api/errors.js';
import { getOrder } from '../../api/orders.js';
import { writeRows } from '../../cli/kit/result.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { LOCAL_EMULATOR, localBaseUrls } from '../../domain/local.js';
import { isOrderStatus, orderStatus } from '../../domain/orders.js';
import { EXIT, UsageError } from '../../errors.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { version } from '../../version.js';
import { isKnownEvent } from '../../webhooks/describe.js';
import {
  buildEvent,
  newDeliveryId,
  orderUrl,
  SAMPLE_ORDER_ID,
  sampleOrder,
  samplePreviousStatus,
} from '../../webhooks/event.js';
import { type HeaderList, Sender, type SendResult } from '../../webhooks/sender.js';
import { signatureHeader } from '../../webhooks/signature.js';
import { findEmulator } from './join.js';
import { SECRET_FLAGS } from './secret-flags.js';
import { RESULT_COLUMNS, resultRow, target } from './send.js';
import { givenSecret, requireSecret } from './shared.js';
import { triggerOnEmulator } from './trigger-real.js';

export const triggerVerb = verb({
  name: 'trigger',
  place: 20,
  summary:
    'against an emulator: make the change happen on a real order, so the emulator sends the event; else send one synthetic signed event',
  args: [{ name: '<event>', help: 'event name, e.g. order.active or order.test' }],
  flags: [
    { flag: '--to <url>', help: 'send a synthetic event here (default http://127.0.0.1:4242/webhooks)' },
    {
      flag: '--order <id>',
      help: 'the order: changed for real on an emulator (default: a new one); else the event is built from it',
    },
    {
      flag: '--customer <id>',
      help: 'against an emulator: the customer of the new order (default: one made now, with a card that suits the event)',
    },
    { flag: '--synthetic', help: 'send a made-up event even against an emulator (no order changes)' },
    ...SECRET_FLAGS,
  ],
  examples: [
    'billing --env local webhooks trigger order.active',
    'billing --env local webhooks trigger order.failed --order 206',
    'billing --env local webhooks trigger order.active --customer 12',
    'billing --env local webhooks trigger order.paused --synthetic',
    'billing --env local webhooks trigger order.paused --order 1042 --to http://localhost:3000/webhooks',
    'billing webhooks trigger order.test --secret-file secret.txt --to http://localhost:3000/webhooks --json',
  ],
  help:
    '\nAgainst an emulator, order.<status> happens for real: on --order, or on a new order made through\n' +
    'the API (a subscription for paused, suspended, review, complete) for --customer or a customer and\n' +
    'product made now and marked "made by billing webhooks trigger" (a card that approves; 0002 for\n' +
    "failed and suspended, 0069 for rejected), so nothing it leaves sends further events; moved by the emulator's own rules\n" +
    '(a first payment approved or declined, a scheduled payment charged, pause, resume, cancel), each\n' +
    'step an event; it delivers to its endpoints (webhooks listen registers one). A status its rules do\n' +
    "not reach from the order's, or the one it has, is refused (exit 2). --synthetic, --to, and any\n" +
    'trigger against a service send a made-up event marked X-Billing-Synthetic: true; against an\n' +
    "emulator without --to it goes to the emulator's endpoints (order.test: its Send test event).\n",
  output: 'list',
  moves: 'data',
});

export default defineCommand(triggerVerb, trigger);

export async function trigger(
  rt: Runtime,
  [name]: string[],
  flags: OptionsOf<typeof triggerVerb>,
): Promise<void> {
  const event = (name ?? '').trim();
  if (!/^[a-z0-9_]+(\.[a-z0-9_]+)+$/i.test(event)) {
    throw new UsageError(`"${name}" is not an event name`, {
      hint: 'for example order.active or order.test',
    });
  }
  if (!isKnownEvent(event)) {
    rt.info(
      `warning: ${event} is not an event of the interface; sent anyway (receivers must answer 2xx to events they do not know)`,
    );
  }
  // order.<status> carries that status; order.test and events we do not know keep the order's.
  const named = event.startsWith('order.') ? event.slice('order.'.length) : '';
  const eventStatus = isOrderStatus(named) ? named : undefined;
  // Against an emulator the change happens for real; only it can say so of its events. Made-up
  // events go where the emulator delivers (its endpoints), not to a port nobody named.
  const emulator = flags.to === undefined ? await findEmulator(rt) : undefined;
  if (emulator && eventStatus && !flags.synthetic) {
    return triggerOnEmulator(rt, emulator.origin, event, eventStatus, flags.order, flags.customer);
  }
  if (emulator && event === 'order.test' && flags.order === undefined) {
    const { testEventOn } = await import('../emulator/deliveries.run.js');
    return testEventOn(rt, emulator.origin, LOCAL_EMULATOR.profileId, true);
  }
  const urls = emulator
    ? await emulatorEndpoints(emulator.origin, event)
    : [target('--to', flags.to ?? DEFAULT_TARGET)];
  // The emulator's endpoints verify with its secret (webhooks listen takes it from there).
  const given = await givenSecret(rt, flags);
  const secret =
    emulator && !given ? { value: emulator.secret } : (given ?? (await requireSecret(rt, flags)));
  const ctx = await rt.context();
  const id = newDeliveryId();
  const occurredAt = new Date().toISOString();

  let document: ReturnType<typeof buildEvent>;
  if (flags.order !== undefined) {
    const orderId = parse.recordId('--order', flags.order);
    const client = await rt.client();
    const order = (await getOrder(client, orderId, { signal: rt.signal })) as unknown as Record<
      string,
      unknown
    >;
    const current = orderStatus(order) || undefined;
    const status = eventStatus ?? current ?? 'active';
    document = buildEvent({
      id,
      event,
      occurredAt,
      previousStatus: eventStatus === undefined || current === status ? null : (current ?? null),
      status,
      order,
      orderUrl: orderUrl(
        ctx.baseUrl ?? localBaseUrls().baseUrl,
        ctx.profileId ?? LOCAL_EMULATOR.profileId,
        orderId,
      ),
    });
  } else {
    const status = eventStatus ?? 'active';
    document = buildEvent({
      id,
      event,
      occurredAt,
      previousStatus: eventStatus === undefined ? null : samplePreviousStatus(status),
      status,
      order: sampleOrder(status, occurredAt),
      orderUrl: orderUrl(
        ctx.baseUrl ?? localBaseUrls().baseUrl,
        ctx.profileId ?? LOCAL_EMULATOR.profileId,
        SAMPLE_ORDER_ID,
      ),
    });
  }
  const body = JSON.stringify(document);
  const sender = new Sender();
  const results: { url: string; result: SendResult }[] = [];
  try {
    const headers = signedHeaders(secret.value, body, id);
    headers.push([SYNTHETIC_HEADER, 'true']);
    for (const url of urls) results.push({ url, result: await sender.post(url, body, headers, rt.signal) });
  } finally {
    await sender.close();
  }
  const rows = results.map(({ url, result }) => resultRow(id, event, url, result));
  if (rows.length === 1) {
    await writeRows(rt, rows, RESULT_COLUMNS, { ...rows[0], synthetic: true, event_document: document });
  } else {
    await writeRows(rt, rows, RESULT_COLUMNS, {
      deliveries: rows,
      synthetic: true,
      event_document: document,
    });
  }
  const where = emulator
    ? ` to the emulator's endpoint${urls.length === 1 ? '' : 's'} ${urls.join(', ')}`
    : '';
  rt.info(`Sent a synthetic ${event}${where} (no order changed; marked ${SYNTHETIC_HEADER}: true).`);
  for (const { url, result } of results) failUnlessAccepted(url, result);
}

/** Marks an event not backed by a state change; listen shows it as synthetic. */
export const SYNTHETIC_HEADER = 'X-Billing-Synthetic';

/** Where `webhooks listen` takes deliveries by default. */
export const DEFAULT_TARGET = 'http://127.0.0.1:4242/webhooks';

/** The URLs of the emulator's endpoints that take this event; none is exit 2, saying so. */
async function emulatorEndpoints(origin: string, event: string): Promise<string[]> {
  const { endpointsOf } = await import('../../ops/emulator-control/endpoints.js');
  const { endpoints } = await endpointsOf(origin);
  const urls = endpoints.filter((e) => e.events === null || e.events.includes(event)).map((e) => e.url);
  if (urls.length === 0) {
    throw new UsageError(
      `the emulator at ${origin} has no webhook endpoint${endpoints.length > 0 ? ` taking ${event}` : ''}: nothing to send the synthetic ${event} to`,
      { hint: 'run billing webhooks listen first (it registers one), or give --to URL' },
    );
  }
  return urls;
}

function signedHeaders(secret: string, body: string, id: string): HeaderList {
  return [
    ['Content-Type', 'application/json'],
    ['User-Agent', `billing-cli/${version} (webhooks trigger)`],
    ['X-Service-Delivery', id],
    ['X-Service-Signature', signatureHeader(secret, body)],
  ];
}

function failUnlessAccepted(url: string, result: SendResult): void {
  if (result.ok) return;
  if ('error' in result) {
    throw new ApiError('network', EXIT.unavailable, `${url}: ${result.error}`, {
      status: 0,
      method: 'POST',
      path: url,
      hint: url === DEFAULT_TARGET ? 'start a receiver first: billing webhooks listen' : undefined,
    });
  }
  const { kind, exitCode } = classifyStatus(result.status);
  const said = result.body.trim() === '' ? '' : `: ${result.body.trim().replace(/\s+/g, ' ')}`;
  throw new ApiError(kind, exitCode, `${url} answered ${result.status}${said}`, {
    status: result.status,
    method: 'POST',
    path: url,
  });
}
