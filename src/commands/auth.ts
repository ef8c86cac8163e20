// billing login | logout | status

import { ApiError } from '../api/errors.js';
import { NotLoggedInError, UsageError } from '../errors.js';
import { writeList, writeOne } from '../format/index.js';
import * as parse from './args.js';
import { readStream } from './body.js';
import { askSecret, flagOrAsk } from './prompt.js';
import type { Runtime } from './runtime.js';

interface LoginFlags {
  withToken?: boolean;
  allowHttp?: boolean;
}

export async function login(rt: Runtime, _args: string[], flags: LoginFlags): Promise<void> {
  const store = await rt.config();
  const data = store.read();
  const envName = rt.envName(data);
  const existing = data.environments[envName];
  const baseUrl = await flagOrAsk(rt, rt.flags.baseUrl ?? existing?.base_url, {
    flag: '--base-url',
    message: 'API version 2 base URL (ends in /api/v2)',
    parse: (v) => parse.url('--base-url', v),
  });
  const baseUrlV1 = await v1Base(rt, baseUrl, rt.flags.baseUrlV1 ?? existing?.base_url_v1);
  const profileId = await flagOrAsk(rt, rt.flags.profile ?? existing?.profile_id?.toString(), {
    flag: '--profile',
    message: 'Merchant profile id',
    parse: (v) => parse.positiveInt('--profile', v),
  });
  const { checkTokenTransport } = await import('../config/transport.js');
  const warning = checkTokenTransport([baseUrl, baseUrlV1], flags.allowHttp === true);
  const token = await readToken(rt, flags);
  const { hideSecret } = await import('../format/terminal.js');
  hideSecret(token);
  if (warning) rt.info(warning);

  // The token is checked with a one-item orders list before anything is saved.
  const { ApiClient } = await import('../api/client.js');
  const { listOrdersPage } = await import('../api/orders.js');
  const client = new ApiClient({
    baseUrl,
    baseUrlV1,
    profileId,
    token,
    debug: rt.debugEnabled ? rt.debug : undefined,
  });
  try {
    await listOrdersPage(client, { page: 1, items: 1 });
  } finally {
    await client.close();
  }
  await store.saveLogin(envName, {
    token,
    base_url: baseUrl,
    base_url_v1: baseUrlV1,
    profile_id: profileId,
    allow_http: flags.allowHttp === true,
  });
  const { maskToken } = await import('../config/resolve.js');
  rt.info(
    `Logged in to ${envName} (profile ${profileId}) with token ${maskToken(token)}; saved in ${store.path}.`,
  );
}

/**
 * The version 1 base (subscriptions and v1 orders use it): the flag or the stored one; else
 * asked on a terminal, with the one derived from the v2 base offered; else derived, and said so.
 */
async function v1Base(rt: Runtime, baseUrl: string, given: string | undefined): Promise<string | undefined> {
  if (given !== undefined) return parse.url('--base-url-v1', given);
  const derived = /\/api\/v2\/?$/.test(baseUrl) ? baseUrl.replace(/\/api\/v2(\/?)$/, '/api/v1$1') : undefined;
  if (rt.canPrompt) {
    return flagOrAsk(rt, undefined, {
      flag: '--base-url-v1',
      message: 'API version 1 base URL (ends in /api/v1; subscriptions use it)',
      parse: (v) => parse.url('--base-url-v1', v),
      default: derived,
    });
  }
  if (derived !== undefined) {
    rt.info(`Version 1 base: ${derived} (derived from --base-url; pass --base-url-v1 if it differs).`);
  }
  return derived;
}

async function readToken(rt: Runtime, flags: LoginFlags): Promise<string> {
  let token: string;
  if (flags.withToken) {
    token = (await readStream(rt.io.stdin, rt.signal)).trim();
  } else if (rt.canPrompt) {
    token = await askSecret(rt, 'API token');
  } else {
    throw new UsageError('no terminal to ask for the token on', {
      hint: 'pipe it in: billing login --with-token < token.txt',
    });
  }
  if (token === '' || /\s/.test(token)) {
    throw new UsageError(token === '' ? 'the token is empty' : 'the token contains white space');
  }
  return token;
}

export async function logout(rt: Runtime): Promise<void> {
  const store = await rt.config();
  const envName = rt.envName(store.read());
  const removed = await store.removeToken(envName);
  rt.info(removed ? `Logged out of ${envName}.` : `No token was stored for ${envName}.`);
}

/** What `status -o json` says of the service: typed, so that a script reads `.service.ok`. */
type ServiceCheck =
  | { ok: true; ms: number }
  | { ok: false; checked: false; reason: string }
  | { ok: false; status: number | null; error: string };

export async function status(rt: Runtime): Promise<void> {
  const ctx = await rt.context();
  const { maskToken } = await import('../config/resolve.js');
  const { maskUrlCredentials, redact } = await import('../format/terminal.js');
  let failure: Error | undefined;
  let service: ServiceCheck;
  if (!ctx.token) {
    failure = new NotLoggedInError(ctx.envName);
    service = { ok: false, checked: false, reason: 'no token' };
  } else {
    const started = performance.now();
    try {
      const { listOrdersPage } = await import('../api/orders.js');
      await listOrdersPage(await rt.client(), { page: 1, items: 1 });
      service = { ok: true, ms: Math.round(performance.now() - started) };
    } catch (err) {
      failure = err as Error;
      const code = err instanceof ApiError && err.status ? err.status : null;
      service = { ok: false, status: code, error: redact((err as Error).message) };
    }
  }
  const report = {
    environment: ctx.envName,
    kind: ctx.kind,
    base_url: ctx.baseUrl === undefined ? null : maskUrlCredentials(ctx.baseUrl),
    base_url_v1: ctx.baseUrlV1 === undefined ? null : maskUrlCredentials(ctx.baseUrlV1),
    profile_id: ctx.profileId ?? null,
    token: ctx.token ? maskToken(ctx.token) : null,
    token_source: ctx.token ? (ctx.sources.token ?? 'config') : null,
    service,
  };
  if (rt.format === 'json' || rt.format === 'ndjson') {
    await writeOne(report, [], rt.output);
  } else {
    const { token_source, service: _service, ...shown } = report;
    const entries = Object.entries({
      ...shown,
      token: report.token ? `${report.token} (from ${token_source})` : '',
      service: serviceText(service),
    }).map(([key, value]) => ({ key, value: value ?? '' }));
    await writeList(entries, 'config_entry', rt.output);
  }
  if (failure) throw failure;
}

function serviceText(service: ServiceCheck): string {
  if (service.ok) return `ok (${service.ms} ms)`;
  if ('reason' in service) return `not checked: ${service.reason}`;
  return `${service.status ? `${service.status} ` : ''}${service.error}`;
}
