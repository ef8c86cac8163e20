// Calls to a running emulator's admin API (/__emulator/…), for the emulator, webhooks and
// links commands. Not the service API: plain fetch, no token, loopback only, with the
// emulator's credential when this user started it (src/domain/emulator-key.ts).

import { ApiError } from '../api/errors.js';
import { EMULATOR_KEY_HEADER, readEmulatorKey } from '../domain/emulator-key.js';
import { emulatorStartCommand } from '../domain/local.js';
import { BillingError, EXIT, UsageError } from '../errors.js';

export interface AdminCall {
  body?: unknown;
  /** Default 5 s; moving the clock over a year of a busy emulator takes longer. */
  timeoutMs?: number;
  /** Shown when no emulator answers: the flags of `emulator start` this command needs (e.g. --webhook-url URL). */
  startFlags?: string;
  /** Statuses that mean the caller asked for something wrong (exit 2), with a hint. */
  usage?: Record<number, string | undefined>;
}

/** The header with the credential of this user's emulator at `origin`; none when this user holds none. */
export function emulatorKeyHeader(origin: string): Record<string, string> {
  const key = readEmulatorKey(origin);
  return key ? { [EMULATOR_KEY_HEADER]: key } : {};
}

export async function adminCall<T = Record<string, unknown>>(
  origin: string,
  method: 'GET' | 'POST',
  path: string,
  o: AdminCall = {},
): Promise<T> {
  const where = `/__emulator/${path}`;
  let res: Response;
  try {
    res = await fetch(`${origin}${where}`, {
      method,
      headers: { 'content-type': 'application/json', ...emulatorKeyHeader(origin) },
      body: method === 'POST' ? JSON.stringify(o.body ?? {}) : undefined,
      signal: AbortSignal.timeout(o.timeoutMs ?? 5000),
    });
  } catch {
    throw new ApiError('network', EXIT.unavailable, `no emulator answers at ${origin}`, {
      status: 0,
      method,
      path: where,
      hint: `start one with ${emulatorStartCommand(origin)}${o.startFlags ? ` ${o.startFlags}` : ''} (add --detach to run it in the background)`,
    });
  }
  const text = await res.text();
  let answer: Record<string, unknown> = {};
  try {
    answer = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // an answer that is not JSON is reported by its status below
  }
  if (res.ok) return answer as T;
  if (res.status === 401) {
    throw new BillingError(
      'forbidden',
      EXIT.forbidden,
      `the emulator at ${origin} was not started by this user: its control API needs the credential its owner holds`,
      {
        hint: 'ask whoever started it, or start one of your own: billing emulator start --port 0 --detach',
      },
    );
  }
  const message =
    (answer.error as { message?: string } | undefined)?.message ?? `the emulator answered ${res.status}`;
  if (o.usage && res.status in o.usage) throw new UsageError(message, { hint: o.usage[res.status] });
  throw new ApiError('server', EXIT.unavailable, message, {
    status: res.status,
    method,
    path: where,
    hint:
      res.status === 404
        ? 'this emulator does not offer it: update billing and restart the emulator'
        : undefined,
  });
}
