// Which service a batch moves money on: the version 2 base URL and the profile, never the
// token. A journal records it, and the journal a batch gets without --journal is named after
// it, so that a refund journaled done on a sandbox never stands for the same payment id on
// production (or on another profile): ids are the service's, not the world's.

import type { Runtime } from '../runtime/runtime.js';

export async function serviceOf(rt: Runtime): Promise<string> {
  return (await resolveService(rt)).service;
}

/** The service, resolved once: its name (for journals) and the base of its requests (for --dry-run). */
export interface ResolvedService {
  service: string;
  base: { baseUrl: string; profileId?: number };
}

export async function resolveService(rt: Runtime): Promise<ResolvedService> {
  const ctx = await rt.context();
  const { requireBaseUrl } = await import('../../config/resolve.js');
  const baseUrl = requireBaseUrl(ctx);
  const url = new URL(baseUrl);
  // origin + path: no user information, query or fragment reaches the journal.
  const origin = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  return {
    service: `${origin} profile ${ctx.profileId ?? '?'}`,
    base: { baseUrl, ...(ctx.profileId === undefined ? {} : { profileId: ctx.profileId }) },
  };
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\]|::1)$/i;

/**
 * A service as the MCP day cap keys it (issue 33 §4): scheme, host — every loopback name
 * (localhost, 127.0.0.0/8, ::1) is one —, port and path, and the profile. Two servers that reach
 * the same emulator as localhost and as 127.0.0.1 count against one cap.
 */
export function canonicalService(service: string): string {
  const at = service.lastIndexOf(' profile ');
  const base = at < 0 ? service : service.slice(0, at);
  const profile = at < 0 ? '' : service.slice(at);
  try {
    const url = new URL(base);
    const host = LOOPBACK.test(url.hostname) ? 'loopback' : url.hostname.toLowerCase();
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    return `${url.protocol}//${host}:${port}${url.pathname.replace(/\/+$/, '')}${profile}`;
  } catch {
    return service;
  }
}
