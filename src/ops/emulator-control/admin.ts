// Calls to a running emulator's admin API (/__emulator/…), for the emulator, webhooks and
// links commands. Not the service API: plain fetch, no token, with the emulator's credential
// of this user (src/domain/emulator-key.ts), sent only to a loopback address, only to the port
// its file names, and only once the process there has proven it holds it (docs/trust.md).

import { ApiError } from '../../api/errors.js';
import {
  EMULATOR_CHALLENGE_HEADER,
  EMULATOR_KEY_HEADER,
  EMULATOR_PROOF_PATH,
  makeChallenge,
  provesKey,
  readEmulatorKey,
} from '../../domain/emulator-key.js';
import { isLoopbackHost } from '../../domain/hosts.js';
import { emulatorStartCommand, localBaseUrls } from '../../domain/local.js';
import { describeListener, listenerOn } from '../../domain/port-listener.js';
import { BillingError, EXIT, UsageError } from '../../errors.js';
import * as parse from '../runtime/args.js';
import type { Runtime } from '../runtime/runtime.js';

export interface AdminCall {
  body?: unknown;
  /** Default 5 s; moving the clock over a year of a busy emulator takes longer. */
  timeoutMs?: number;
  /** Shown when no emulator answers: the flags of `emulator start` this command needs (e.g. --webhook-url URL). */
  startFlags?: string;
  /** Statuses that mean the caller asked for something wrong (exit 2), with a hint. */
  usage?: Record<number, string | undefined>;
}

/** Origins whose emulator proved it holds this user's key, in this run. */
const proven = new Map<string, Promise<Record<string, string>>>();

/**
 * The header with the credential of this user's emulator at `origin`, once the process there
 * has proven it holds the key: an HMAC of a fresh nonce under it. A process that cannot is
 * "not the emulator you started" (exit 4), and is sent nothing else; neither is an address
 * that is not this machine. No key of this user for that port: the emulator is someone else's.
 */
export function emulatorKeyHeader(origin: string): Promise<Record<string, string>> {
  let header = proven.get(origin);
  if (!header) {
    header = prove(origin);
    proven.set(origin, header);
    header.catch(() => proven.delete(origin));
  }
  return header;
}

async function prove(origin: string): Promise<Record<string, string>> {
  const url = new URL(origin);
  if (!isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `the emulator's control API is reached only on this machine, and ${url.host} is not a loopback address: nothing was sent`,
      {
        hint: `point --base-url (or the environment's base_url) at http://127.0.0.1:PORT/api/v2 of your emulator`,
      },
    );
  }
  const port = Number(url.port || 80);
  const key = readEmulatorKey(origin);
  const nonce = makeChallenge();
  let res: Response;
  try {
    res = await fetch(`${origin}${EMULATOR_PROOF_PATH}`, {
      headers: { [EMULATOR_CHALLENGE_HEADER]: nonce },
      signal: AbortSignal.timeout(5000),
    });
  } catch {
    throw noEmulator(origin, 'GET', EMULATOR_PROOF_PATH);
  }
  let given: unknown;
  try {
    given = ((await res.json()) as { proof?: unknown }).proof;
  } catch {
    given = undefined;
  }
  if (key === undefined) throw notStartedByYou(origin);
  if (!res.ok || !provesKey(given, key, port, nonce)) {
    const listener = listenerOn(port);
    throw new NotYourEmulatorError(
      `not the emulator you started: what answers at ${origin} could not prove it holds the key your emulator of port ${port} made${listener ? ` (listening on port ${port}: ${describeListener(listener)})` : ''}; nothing was sent to it and nothing from it was kept`,
      {
        hint: `your emulator of that port has stopped; stop whatever listens there, or start yours on another port: billing emulator start --port 0 --detach`,
      },
    );
  }
  return { [EMULATOR_KEY_HEADER]: key };
}

/** What answers on the port of this user's emulator could not prove it holds its key (exit 4). */
export class NotYourEmulatorError extends BillingError {
  override name = 'NotYourEmulatorError';
  constructor(message: string, options: { hint: string }) {
    super('forbidden', EXIT.forbidden, message, options);
  }
}

function notStartedByYou(origin: string): BillingError {
  return new BillingError(
    'forbidden',
    EXIT.forbidden,
    `the emulator at ${origin} was not started by this user: its control API needs the credential its owner holds`,
    {
      hint: 'ask whoever started it, or start one of your own: billing emulator start --port 0 --detach',
    },
  );
}

function noEmulator(origin: string, method: string, where: string, startFlags?: string): ApiError {
  return new ApiError('network', EXIT.unavailable, `no emulator answers at ${origin}`, {
    status: 0,
    method,
    path: where,
    hint: `start one with ${emulatorStartCommand(origin)}${startFlags ? ` ${startFlags}` : ''} (add --detach to run it in the background)`,
  });
}

export async function adminCall<T = Record<string, unknown>>(
  origin: string,
  method: 'GET' | 'POST',
  path: string,
  o: AdminCall = {},
): Promise<T> {
  const where = `/__emulator/${path}`;
  let headers: Record<string, string>;
  try {
    headers = await emulatorKeyHeader(origin);
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'network')
      throw noEmulator(origin, method, where, o.startFlags);
    throw error;
  }
  let res: Response;
  try {
    res = await fetch(`${origin}${where}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: method === 'POST' ? JSON.stringify(o.body ?? {}) : undefined,
      signal: AbortSignal.timeout(o.timeoutMs ?? 5000),
    });
  } catch {
    throw noEmulator(origin, method, where, o.startFlags);
  }
  const text = await res.text();
  let answer: Record<string, unknown> = {};
  try {
    answer = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // an answer that is not JSON is reported by its status below
  }
  if (res.ok) return answer as T;
  if (res.status === 401) throw notStartedByYou(origin);
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

/**
 * The emulator a command acts on: --port, else the selected environment's when it is an
 * emulator's (kind local, as `emulator start --env NAME` and `login --emulator` make), else
 * the `local` environment's, else the default port.
 */
export async function emulatorOrigin(rt: Runtime, flags: { port?: string }): Promise<string> {
  if (flags.port !== undefined) return localBaseUrls(parse.port(flags.port)).origin;
  const ctx = await rt.context();
  if (ctx.kind === 'local' && ctx.baseUrl) return new URL(ctx.baseUrl).origin;
  return localEnvOrigin(rt);
}

/** The `local` environment's emulator: its saved address, else the default port. */
export async function localEnvOrigin(rt: Runtime): Promise<string> {
  const local = (await rt.config()).read().environments.local;
  return local?.base_url ? new URL(local.base_url).origin : localBaseUrls().origin;
}
