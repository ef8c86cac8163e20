// billing login | logout | status

import { ApiError, NotLoggedInError, UsageError } from '../api/errors.js';
import { writeList, writeOne } from '../format/index.js';
import * as parse from './args.js';
import { readStream } from './body.js';
import { ask, askSecret } from './prompt.js';
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
  const baseUrl = parse.url(
    '--base-url',
    rt.flags.baseUrl ??
      existing?.base_url ??
      (await ask(rt, '--base-url', 'API v2 base URL (ends in /api/v2)')),
  );
  const baseUrlV1 = rt.flags.baseUrlV1 ?? existing?.base_url_v1;
  if (baseUrlV1 !== undefined) parse.url('--base-url-v1', baseUrlV1);
  const profile =
    rt.flags.profile ?? existing?.profile_id?.toString() ?? (await ask(rt, '--profile', 'Profile id'));
  const profileId = parse.positiveInt('--profile', profile);
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
