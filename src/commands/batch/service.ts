// Which service a batch moves money on: the version 2 base URL and the profile, never the
// token. A journal records it, and the journal a batch gets without --journal is named after
// it, so that a refund journaled done on a sandbox never stands for the same payment id on
// production (or on another profile): ids are the service's, not the world's.

import type { Runtime } from '../runtime.js';

export async function serviceOf(rt: Runtime): Promise<string> {
  const ctx = await rt.context();
  const { requireBaseUrl } = await import('../../config/resolve.js');
  const url = new URL(requireBaseUrl(ctx));
  // origin + path: no user information, query or fragment reaches the journal.
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  return `${base} profile ${ctx.profileId ?? '?'}`;
}
