// The headers of a delivery sent again (`webhooks replay`, the --inspect page's Replay): the
// recorded ones without hop-by-hop, credential, signature and delivery headers, then the
// delivery id, and a fresh signature only when the body is vouched for (verified when it
// arrived); otherwise marked unverified. An edited body is marked edited.

import { CREDENTIAL_HEADERS, type HeaderList } from './sender.js';
import { DELIVERY_HEADER, SIGNATURE_HEADER, signatureHeader } from './signature.js';

/** Marks a replayed delivery sent without a signature. */
export const UNVERIFIED_HEADER = 'X-Billing-Unverified';
/** Marks a replayed delivery whose body was edited in the inspector. */
export const EDITED_HEADER = 'X-Billing-Edited';

const DROPPED_ON_REPLAY = new Set([
  SIGNATURE_HEADER,
  DELIVERY_HEADER,
  'x-billing-edited',
  'x-billing-unverified',
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'expect',
  'te',
  'trailer',
  'upgrade',
]);

export function replayHeaders(
  recorded: Record<string, string>,
  body: Buffer,
  o: { id: string | null; signWith?: string; edited?: boolean },
): HeaderList {
  const headers: HeaderList = Object.entries(recorded).filter(([name]) => {
    const lower = name.toLowerCase();
    return !DROPPED_ON_REPLAY.has(lower) && !CREDENTIAL_HEADERS.has(lower);
  });
  if (o.id !== null) headers.push(['X-Service-Delivery', o.id]);
  if (o.signWith !== undefined) headers.push(['X-Service-Signature', signatureHeader(o.signWith, body)]);
  else headers.push([UNVERIFIED_HEADER, 'true']);
  if (o.edited) headers.push([EDITED_HEADER, 'true']);
  return headers;
}
