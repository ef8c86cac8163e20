// billing webhooks trigger | replay: send signed deliveries to an endpoint, as the service would.

import { ApiError, classifyStatus } from '../../api/errors.js';
import { getOrder } from '../../api/orders.js';
import { writeRows } from '../../cli/kit/result.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { LOCAL_EMULATOR, localBaseUrls } from '../../domain/local.js';
import { isOrderStatus, orderStatus } from '../../domain/orders.js';
import { BatchFailedError, EXIT, UsageError } from '../../errors.js';
import { textColumn as column } from '../../format/index.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { version } from '../../version.js';
import { describeEvent, isKnownEvent } from '../../webhooks/describe.js';
import {
  buildEvent,
  newDeliveryId,
  orderUrl,
  SAMPLE_ORDER_ID,
  sampleOrder,
  samplePreviousStatus,
} from '../../webhooks/event.js';
import {
  type DeliveryRecord,
  decodeBody,
  isVerifiedUnchanged,
  RecordFileError,
  readRecords,
} from '../../webhooks/recorder.js';
import { replayHeaders, UNVERIFIED_HEADER } from '../../webhooks/replay.js';
import { type HeaderList, Sender, type SendResult } from '../../webhooks/sender.js';
import { signatureHeader } from '../../webhooks/signature.js';
import { expandLocalUrl } from '../../webhooks/target.js';
import { findEmulator } from './join.js';
import type { replayVerb } from './replay.js';
import { givenSecret, requireSecret } from './shared.js';
import type { triggerVerb } from './trigger.js';
import { triggerOnEmulator } from './trigger-real.js';

/** Marks an event not backed by a state change; listen shows it as synthetic. */
export const SYNTHETIC_HEADER = 'X-Billing-Synthetic';

/** Where `webhooks listen` takes deliveries by default. */
export const DEFAULT_TARGET = 'http://127.0.0.1:4242/webhooks';

const RESULT_COLUMNS = [
  column('delivery_id', 'Delivery'),
  column('event', 'Event'),
  column('url', 'To'),
  column('status', 'Answer', (r) => (r.status === null ? String(r.error ?? 'no answer') : String(r.status))),
  column('latency_ms', 'Latency', (r) => `${r.latency_ms} ms`),
];

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

export async function replay(
  rt: Runtime,
  [file]: string[],
  flags: OptionsOf<typeof replayVerb>,
): Promise<void> {
  const url = target('--to', flags.to);
  const secret = await requireSecret(rt, flags);
  let records: Awaited<ReturnType<typeof readRecords>>;
  try {
    records = await readRecords(file ?? '');
  } catch (err) {
    if (err instanceof RecordFileError) throw new UsageError(`${file}: ${err.message}`);
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
    );
  }
  // Re-signing vouches for a body: only one verified when recorded and unchanged since is.
  // The others are refused before anything is sent, unless asked for as they are.
  const trusted = new Set(records.filter((r) => isVerifiedUnchanged(r, secret.value)));
  const untrusted = records.filter((r) => !trusted.has(r));
  const first = untrusted[0];
  if (first !== undefined && !flags.sendUnverified) {
    const more = untrusted.length > 1 ? ` (and ${untrusted.length - 1} more)` : '';
    throw new UsageError(
      `${file} line ${first.line}${first.delivery_id ? ` (delivery ${first.delivery_id})` : ''} ${whyUntrusted(first)}${more}: replay re-signs only deliveries verified when recorded and unchanged since; nothing was sent`,
      {
        hint: `--send-unverified sends such records as they are: without a signature, marked ${UNVERIFIED_HEADER}: true`,
      },
    );
  }
  const seen = new Set<string>();
  const sender = new Sender();
  const rows: ReturnType<typeof resultRow>[] = [];
  try {
    for (const record of records) {
      if (rt.signal.aborted) break;
      const body = decodeBody(record);
      const signed = trusted.has(record);
      // A signed delivery is named by its body's id, as listen requires.
      const id = (signed ? describeEvent(body).id : null) ?? record.delivery_id ?? null;
      // A recorded retry of the same delivery is sent once.
      if (id !== null && seen.has(id)) continue;
      if (id !== null) seen.add(id);
      const headers = replayHeaders(record.headers, body, {
        id,
        ...(signed ? { signWith: secret.value } : {}),
      });
      const result = await sender.post(url, body, headers, rt.signal);
      const row = resultRow(id, describeEvent(body).event, url, result);
      rows.push(row);
      rt.info(`${id ?? '(no delivery id)'}: ${row.status ?? row.error}`);
    }
  } finally {
    await sender.close();
  }
  await writeRows(rt, rows, RESULT_COLUMNS);
  const failed = rows.filter((r) => r.status === null || r.status < 200 || r.status >= 300).length;
  if (failed > 0)
    throw new BatchFailedError(`${failed} of ${rows.length} deliveries were not accepted by ${url}`);
  rt.info(`Replayed ${rows.length} deliveries to ${url}.`);
}

function whyUntrusted(record: DeliveryRecord): string {
  if (record.verified !== true) return 'was recorded without verification (listen --skip-verify)';
  if (typeof record.verified_digest !== 'string') {
    return 'has no digest of what was verified (recorded by an older billing, or edited)';
  }
  return 'changed since it was recorded, or was recorded under another signing secret';
}

function signedHeaders(secret: string, body: string, id: string): HeaderList {
  return [
    ['Content-Type', 'application/json'],
    ['User-Agent', `billing-cli/${version} (webhooks trigger)`],
    ['X-Service-Delivery', id],
    ['X-Service-Signature', signatureHeader(secret, body)],
  ];
}

function resultRow(id: string | null, event: string | null, url: string, result: SendResult) {
  return {
    delivery_id: id,
    event,
    url,
    status: result.status === 0 ? null : result.status,
    latency_ms: Math.round(result.latencyMs),
    error: 'error' in result ? result.error : null,
    answer: 'body' in result ? result.body : null,
  };
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

function target(flag: string, value: string): string {
  const url = expandLocalUrl(value);
  if (!url) throw new UsageError(`${flag} must be a URL, a port or a path, got "${value}"`);
  return url;
}
