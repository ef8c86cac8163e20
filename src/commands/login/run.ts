// billing login | logout | status

import { ApiError } from '../../api/errors.js';
import { readStream } from '../../cli/kit/body.js';
import { askSecret, flagOrAsk } from '../../cli/kit/prompt.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import type { EnvKind } from '../../config/types.js';
import { BillingError, EXIT, NotLoggedInError, UsageError } from '../../errors.js';
import { write } from '../../format/index.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import type { loginVerb } from './login.js';

type LoginFlags = OptionsOf<typeof loginVerb>;

export async function login(rt: Runtime, _args: string[], flags: LoginFlags): Promise<void> {
  const store = await rt.config();
  const data = store.read();
  const envName = rt.envName(data);
  const { checkEnvName, parseKind } = await import('../../config/values.js');
  checkEnvName(envName);
  const kind = flags.kind === undefined ? undefined : parseKind(flags.kind, '--kind');
  const { builtinEnvironment } = await import('../../config/builtins.js');
  const builtinKind = builtinEnvironment(envName)?.kind;
  if (kind !== undefined && builtinKind !== undefined && kind !== builtinKind) {
    throw new UsageError(`--kind ${kind}: the built-in environment "${envName}" is ${builtinKind}`);
  }
  if (flags.emulator !== undefined) return loginToEmulator(rt, envName, flags.emulator, kind);
  const { storedEnvironment } = await import('../../config/resolve.js');
  const existing = storedEnvironment(data, envName);
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
  const { checkTokenTransport } = await import('../../config/transport.js');
  const warning = checkTokenTransport([baseUrl, baseUrlV1], flags.allowHttp === true);
  const token = await readToken(rt, flags);
  const { hideSecret } = await import('../../format/terminal.js');
  hideSecret(token);
  if (warning) rt.info(warning);

  // The token is checked with a one-item orders list before anything is saved.
  const { ApiClient } = await import('../../api/client.js');
  const { listOrdersPage } = await import('../../api/orders.js');
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
  const moved = await store.saveLogin(envName, {
    token,
    base_url: baseUrl,
    base_url_v1: baseUrlV1,
    profile_id: profileId,
    allow_http: flags.allowHttp === true,
    kind,
  });
  const { maskToken } = await import('../../config/resolve.js');
  rt.info(
    `Logged in to ${envName} (profile ${profileId}) with token ${maskToken(token)}; saved in ${store.path}.`,
    ...movedLines(moved),
  );
  await sayKind(rt);
}

/** `login --emulator URL`: an environment for the emulator at URL, checked like any login. */
async function loginToEmulator(rt: Runtime, envName: string, url: string, kind: EnvKind | undefined) {
  for (const [flag, given] of [
    ['--base-url', rt.flags.baseUrl],
    ['--base-url-v1', rt.flags.baseUrlV1],
    ['--gateway-url', rt.flags.gatewayUrl],
  ] as const) {
    if (given !== undefined) throw new UsageError(`--emulator sets the addresses: leave out ${flag}`);
  }
  const origin = new URL(parse.url('--emulator', url)).origin;
  await saveEmulatorEnvironment(rt, envName, origin, { kind });
  const store = await rt.config();
  rt.info(`Environment ${envName} now uses the emulator at ${origin}; saved in ${store.path}.`);
  await sayKind(rt);
}

/**
 * Makes or updates `envName` for the emulator at `origin` (its addresses, the development
 * token, profile 1 unless --profile, the webhook secret), after one request proves it answers.
 * Shared by `login --emulator` and `emulator start --env`.
 */
export async function saveEmulatorEnvironment(
  rt: Runtime,
  envName: string,
  origin: string,
  o: { kind?: EnvKind; webhookSecret?: string } = {},
): Promise<void> {
  const { LOCAL_EMULATOR, localBaseUrls } = await import('../../domain/local.js');
  const { checkEnvName } = await import('../../config/values.js');
  checkEnvName(envName);
  const { hostname, port } = new URL(origin);
  const urls = localBaseUrls(Number(port || 80), hostname);
  const profileId =
    rt.flags.profile === undefined
      ? LOCAL_EMULATOR.profileId
      : parse.positiveInt('--profile', rt.flags.profile);
  const { ApiClient } = await import('../../api/client.js');
  const { listOrdersPage } = await import('../../api/orders.js');
  const client = new ApiClient({
    baseUrl: urls.baseUrl,
    baseUrlV1: urls.baseUrlV1,
    profileId,
    token: LOCAL_EMULATOR.token,
    debug: rt.debugEnabled ? rt.debug : undefined,
  });
  try {
    await listOrdersPage(client, { page: 1, items: 1 });
  } finally {
    await client.close();
  }
  const store = await rt.config();
  await store.saveLogin(envName, {
    token: LOCAL_EMULATOR.token,
    base_url: urls.baseUrl,
    base_url_v1: urls.baseUrlV1,
    gateway_url: urls.gatewayUrl,
    webhook_secret: o.webhookSecret ?? LOCAL_EMULATOR.webhookSecret,
    profile_id: profileId,
    kind: o.kind ?? (envName === 'sandbox' || envName === 'production' ? undefined : 'local'),
  });
}

/** "base_url_v1 moved with it to …": one line per address that followed the v2 base. */
function movedLines(moved: readonly { key: string; value: string }[]): string[] {
  return moved.map((m) => `${m.key} moved with it to ${m.value}.`);
}

/** After a login: what the environment is, and what that means for money moves. */
async function sayKind(rt: Runtime): Promise<void> {
  const ctx = await rt.context();
  if (ctx.kindSource === 'address' && ctx.kind === 'production') {
    rt.info(
      `${ctx.envName} points at a host other than this machine, so it is guarded like production: money moves, deletes, pause, resume and cancel ask first (--yes in a script).`,
      `If it is a sandbox, say so: billing login --env ${ctx.envName} --kind sandbox`,
    );
  } else {
    rt.info(
      `Kind: ${ctx.kind}${ctx.kind === 'production' ? ' (money moves ask first; --yes in a script)' : ''}.`,
    );
  }
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
  const envName = await rt.knownEnvName();
  const removed = await store.removeToken(envName);
  rt.info(removed ? `Logged out of ${envName}.` : `No token was stored for ${envName}.`);
}

/** What `status -o json` says of the service: typed, so that a script reads `.service.ok`. */
type ServiceCheck =
  | { ok: true; ms: number }
  | { ok: false; checked: false; reason: string }
  | { ok: false; status: number | null; error: string };

/**
 * Environment, kind, every address, profile, masked token, and a check of each address:
 * the v2 base with a one-item orders list (the token), the v1 base and the gateway for an
 * answer at all (no token: they have nothing to read). Fails (the first failure's exit
 * code) when any address fails, naming each.
 */
export async function status(rt: Runtime): Promise<void> {
  const ctx = await rt.context();
  const { maskToken } = await import('../../config/resolve.js');
  const { describeKind } = await import('../../config/kind.js');
  const { maskUrlCredentials, redact } = await import('../../format/terminal.js');
  const failures: { address: string; error: Error }[] = [];
  let service: ServiceCheck;
  if (!ctx.token) {
    failures.push({ address: 'base_url', error: new NotLoggedInError(ctx.envName) });
    service = { ok: false, checked: false, reason: 'no token' };
  } else {
    const started = performance.now();
    try {
      const { listOrdersPage } = await import('../../api/orders.js');
      await listOrdersPage(await rt.client(), { page: 1, items: 1 });
      service = { ok: true, ms: Math.round(performance.now() - started) };
    } catch (err) {
      failures.push({ address: 'base_url', error: err as Error });
      const code = err instanceof ApiError && err.status ? err.status : null;
      service = { ok: false, status: code, error: redact((err as Error).message) };
    }
  }
  const { checkTokenTransport } = await import('../../config/transport.js');
  const answers = async (
    key: string,
    url: string | undefined,
    path: string,
    carriesToken: boolean,
  ): Promise<ServiceCheck> => {
    if (url === undefined) return { ok: false, checked: false, reason: 'not set' };
    // The check itself sends no token, but the commands would: the same plain-http rule as v2.
    try {
      if (carriesToken) checkTokenTransport([url], ctx.allowHttp);
    } catch (err) {
      failures.push({ address: key, error: err as Error });
      return { ok: false, status: null, error: (err as Error).message };
    }
    const check = await probe(`${url}${path}`);
    if (!check.ok && 'error' in check) {
      failures.push({ address: key, error: new BillingError('network', EXIT.unavailable, check.error) });
    }
    return check;
  };
  const [serviceV1, gateway] = await Promise.all([
    answers('base_url_v1', ctx.baseUrlV1, '/orders/create_single_order', true),
    answers('gateway_url', ctx.gatewayUrl, '/paymentWidgets.js', false),
  ]);
  const shownUrl = (url: string | undefined) => (url === undefined ? null : maskUrlCredentials(url));
  const report = {
    environment: ctx.envName,
    kind: ctx.kind,
    kind_source: ctx.kindSource,
    ...(ctx.kindAddress ? { kind_address: `${ctx.kindAddress.url} (${ctx.kindAddress.where})` } : {}),
    base_url: shownUrl(ctx.baseUrl),
    base_url_v1: shownUrl(ctx.baseUrlV1),
    gateway_url: shownUrl(ctx.gatewayUrl),
    profile_id: ctx.profileId ?? null,
    token: ctx.token ? maskToken(ctx.token) : null,
    token_source: ctx.token ? (ctx.sources.token ?? 'config') : null,
    service,
    service_v1: serviceV1,
    gateway,
  };
  const {
    token_source,
    kind_source,
    kind_address: _a,
    service: _v2,
    service_v1: _v1,
    gateway: _gw,
    ...shown
  } = report;
  const entries = Object.entries({
    ...shown,
    kind: describeKind({ kind: ctx.kind, source: ctx.kindSource, address: ctx.kindAddress }),
    token: report.token ? `${report.token} (from ${token_source})` : '',
    service: serviceText(service),
    service_v1: serviceText(serviceV1),
    gateway: serviceText(gateway),
  }).map(([key, value]) => ({ key, value: value ?? '' }));
  await write(rt.output, { one: report, columns: [] }, { rows: { list: entries, columns: 'config_entry' } });
  const others = failures.filter((f) => f.address !== 'base_url');
  const v2 = failures.find((f) => f.address === 'base_url')?.error;
  const names = others.map((f) => f.address).join(' and ');
  if (v2) {
    if (others.length > 0 && v2 instanceof BillingError) {
      v2.hint = `${v2.hint ? `${v2.hint}; ` : ''}${names} failed too`;
    }
    throw v2;
  }
  if (others.length > 0) {
    throw new BillingError(
      'network',
      EXIT.unavailable,
      `${names} of environment "${ctx.envName}" failed: ${others[0]!.error.message}`,
      { hint: `point it at the service: billing config set ${others[0]!.address} URL --env ${ctx.envName}` },
    );
  }
}

/** Any HTTP answer from `url` (no token sent); a refused connection or a timeout is a failure. */
async function probe(url: string): Promise<ServiceCheck> {
  const started = performance.now();
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000), redirect: 'manual' });
    await res.body?.cancel();
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    const { maskUrlCredentials } = await import('../../format/terminal.js');
    const reason =
      cause ?? ((err as Error).name === 'TimeoutError' ? 'no answer within 5s' : (err as Error).message);
    return {
      ok: false,
      status: null,
      error: `could not reach ${maskUrlCredentials(new URL(url).origin)}: ${reason}`,
    };
  }
}

function serviceText(service: ServiceCheck): string {
  if (service.ok) return `ok (${service.ms} ms)`;
  if ('reason' in service) return `not checked: ${service.reason}`;
  return `${service.status ? `${service.status} ` : ''}${service.error}`;
}
