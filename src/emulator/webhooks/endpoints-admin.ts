// The emulator's webhook endpoints, managed while it runs (`billing emulator webhooks`,
// `webhooks listen`):
//   GET  /__emulator/webhook-endpoints           {endpoints, secret}
//   POST /__emulator/webhook-endpoints           {url, events?}: add (or change the events of) one
//   POST /__emulator/webhook-endpoints/remove    {url}
// The signing secret is given whole: the admin API answers only this machine's own requests
// (Host, origin and content-type checks in http/server.ts), and listen needs it to verify.

import { ORDER_EVENTS } from '../../domain/orders.js';
import { type AdminReply, HttpError, isObject, parseJson } from '../model/reply.js';
import { isEndpointUrl, type WebhookDeliveries } from './deliveries.js';

const BASE = '/__emulator/webhook-endpoints';
const ORDER_STATUS_EVENTS = new Set<string>(ORDER_EVENTS.filter((e) => e !== 'order.test'));

export function endpointsAdmin(
  webhooks: WebhookDeliveries | undefined,
  method: string,
  path: string,
  rawBody: string,
): AdminReply | undefined {
  if (path !== BASE && path !== `${BASE}/remove`) return undefined;
  if (!webhooks) throw new HttpError(409, 'this emulator has no webhook delivery');
  if (path === BASE && method === 'GET') {
    return { status: 200, body: { endpoints: webhooks.endpointList(), secret: webhooks.secret } };
  }
  if (method !== 'POST') {
    throw new HttpError(405, `${method} is not allowed on ${path}`, {
      headers: { Allow: path === BASE ? 'GET, POST' : 'POST' },
    });
  }
  const input = objectBody(rawBody);
  const url = input.url;
  if (typeof url !== 'string' || !isEndpointUrl(url)) {
    throw new HttpError(400, 'url must be an http(s) URL, like http://127.0.0.1:4242/webhooks');
  }
  if (path === `${BASE}/remove`) {
    if (!webhooks.removeEndpoint(url)) throw new HttpError(404, `no webhook endpoint ${url}`);
    return { status: 200, body: { removed: url, endpoints: webhooks.endpointList() } };
  }
  const { endpoint, added } = webhooks.addEndpoint(url, events(input.events));
  return { status: added ? 201 : 200, body: { endpoint, added, secret: webhooks.secret } };
}

/** null or absent: every order event; else a list of them. */
function events(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length === 0 || !value.every((e) => typeof e === 'string')) {
    throw new HttpError(400, 'events must be a non-empty list of order event names, or null for all');
  }
  const unknown = value.find((e) => !ORDER_STATUS_EVENTS.has(e));
  if (unknown !== undefined) {
    throw new HttpError(
      400,
      `events: ${JSON.stringify(unknown)} is not an order event (order.active, order.failed, …)`,
    );
  }
  return [...new Set(value as string[])];
}

function objectBody(rawBody: string): Record<string, unknown> {
  const parsed = parseJson(rawBody);
  if (!isObject(parsed)) throw new HttpError(400, 'the request body must be a JSON object like {"url": "…"}');
  return parsed;
}
