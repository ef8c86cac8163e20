// Emulator-only admin endpoints for webhooks:
//   GET  /__emulator/deliveries                the delivery log, newest first, with attempts
//   POST /__emulator/deliveries/{id}/redeliver the same delivery (id, payload) sent again now
//   POST /__emulator/send-test-event           {profile_id?}: order.test to every endpoint
// (POST /__emulator/orders/{id}/status, which moves an order by the rules, is in ../billing/admin.ts.)

import { type AdminReply, HttpError, isObject, parseJson } from '../model/reply.js';
import type { Runtime } from '../model/runtime.js';
import type { WebhookDeliveries } from './deliveries.js';
import { endpointsAdmin } from './endpoints-admin.js';

/** The runtime as the admin API sees it: with the webhook delivery when the emulator has one. */
export type WebhookRuntime = Runtime & { webhooks?: WebhookDeliveries };

/** The answer for a webhook admin route, or undefined when the path is not one. */
export function webhooksAdmin(
  runtime: WebhookRuntime,
  method: string,
  path: string,
  rawBody: string,
): AdminReply | undefined {
  const endpoints = endpointsAdmin(runtime.webhooks, method, path, rawBody);
  if (endpoints) return endpoints;
  if (path === '/__emulator/deliveries') {
    if (method !== 'GET')
      throw new HttpError(405, `${method} is not allowed on ${path}`, { headers: { Allow: 'GET' } });
    return { status: 200, body: { deliveries: runtime.webhooks?.deliveries() ?? [] } };
  }
  const redeliver = REDELIVER_PATH.exec(path);
  if (redeliver) {
    if (method !== 'POST')
      throw new HttpError(405, `${method} is not allowed on ${path}`, { headers: { Allow: 'POST' } });
    return redeliverOne(runtime, decodeURIComponent(redeliver[1] as string));
  }
  if (path === '/__emulator/send-test-event') {
    if (method !== 'POST')
      throw new HttpError(405, `${method} is not allowed on ${path}`, { headers: { Allow: 'POST' } });
    return sendTestEvent(runtime, body(rawBody));
  }
  return undefined;
}

const REDELIVER_PATH = /^\/__emulator\/deliveries\/([^/]+)\/redeliver$/;

function redeliverOne(runtime: WebhookRuntime, id: string): AdminReply {
  let delivery: ReturnType<WebhookDeliveries['redeliver']>;
  try {
    delivery = runtime.webhooks?.redeliver(id);
  } catch (error) {
    throw new HttpError(409, `delivery ${id} cannot be sent again: ${(error as Error).message}`);
  }
  if (!delivery) throw new HttpError(404, `no delivery ${id}`);
  return { status: 202, body: { delivery } };
}

function sendTestEvent(runtime: WebhookRuntime, input: Record<string, unknown>): AdminReply {
  const webhooks = runtime.webhooks;
  if (!webhooks || webhooks.urls.length === 0) {
    throw new HttpError(
      409,
      'no webhook endpoints: add one with billing emulator webhooks add URL (or --webhook-url at start), or run billing webhooks listen',
    );
  }
  const profileId = input.profile_id ?? 1;
  if (typeof profileId !== 'number' || !Number.isSafeInteger(profileId) || profileId < 1) {
    throw new HttpError(400, 'profile_id must be a positive integer');
  }
  const sent = webhooks.sendTestEvent(profileId);
  return {
    status: 202,
    body: {
      deliveries: sent.map((d) => ({ id: d.id, event: d.event, endpoint: d.endpoint, state: d.state })),
    },
  };
}

function body(rawBody: string): Record<string, unknown> {
  const parsed = parseJson(rawBody);
  if (parsed === undefined) return {};
  if (!isObject(parsed)) throw new HttpError(400, 'the request body must be a JSON object');
  return parsed;
}
