// What `billing webhooks trigger` and `replay` share: the address a delivery goes to and the
// row of its result.

import { UsageError } from '../../errors.js';
import { textColumn as column } from '../../format/index.js';
import type { SendResult } from '../../webhooks/sender.js';
import { expandLocalUrl } from '../../webhooks/target.js';

export const RESULT_COLUMNS = [
  column('delivery_id', 'Delivery'),
  column('event', 'Event'),
  column('url', 'To'),
  column('status', 'Answer', (r) => (r.status === null ? String(r.error ?? 'no answer') : String(r.status))),
  column('latency_ms', 'Latency', (r) => `${r.latency_ms} ms`),
];

export function resultRow(id: string | null, event: string | null, url: string, result: SendResult) {
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

export function target(flag: string, value: string): string {
  const url = expandLocalUrl(value);
  if (!url) throw new UsageError(`${flag} must be a URL, a port or a path, got "${value}"`);
  return url;
}
