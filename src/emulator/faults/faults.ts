// Faults injected per endpoint, so that a client's recovery is tested against real HTTP:
// a 502 before anything is applied, a 502 or a dropped connection after the change was
// applied, a 502 after applying whose new record reads show only later (late: a service whose
// record takes time to be seen, docs/decisions.md "The settle window"), and slow answers. Rules are set at start (EmulatorOptions.faults) or at any
// time through POST /__emulator/faults.

import { setTimeout as delay } from 'node:timers/promises';
import { routes } from '../../domain/routes.js';
import { type AdminReply, errorReply, HttpError, isObject, parseJson, type Reply } from '../model/reply.js';
import { FAULT_MODES, type FaultMode, type FaultRule, type Runtime } from '../model/runtime.js';

/** Short names for the payment endpoints. */
export const ROUTE_NAMES: Record<string, string> = {
  refund: 'POST /payments/:id/refund',
  capture: 'POST /payments/:id/capture',
  reverse: 'POST /payments/:id/reverse',
  pay_with_card: 'POST /orders/:id/pay_with_card',
  get_payment: 'GET /payments/:id',
  order_payments: 'GET /orders/:id/payments',
};

/** Every route the emulator serves, by its name in the route table (sendEmailLink, …): "POST /orders/:id/send_email_link". */
const TABLE_ROUTES: Record<string, string> = Object.fromEntries(
  Object.values(routes).map((r) => [
    r.name,
    `${r.method} ${r.path.replace(/^\/profiles\/\{profile_id\}/, '').replace(/\{id\}/g, ':id')}`,
  ]),
);
const SERVED = new Set(Object.values(TABLE_ROUTES));

/** What a rule's route stands for: "METHOD /path", a path alone, or "*"; undefined when no route is served by it. */
function resolveRoute(route: string): string | undefined {
  if (route === '*') return route;
  const wanted = ROUTE_NAMES[route] ?? TABLE_ROUTES[route] ?? route;
  const served = wanted.startsWith('/')
    ? [...SERVED].some((key) => key.slice(key.indexOf(' ') + 1) === wanted)
    : SERVED.has(wanted);
  return served ? wanted : undefined;
}

/** Throws, naming the routes there are, unless a rule's route is served: a rule for no route would inject nothing, silently. */
function checkRoute(route: string): void {
  if (resolveRoute(route) !== undefined) return;
  const names = [...Object.keys(ROUTE_NAMES), ...Object.keys(TABLE_ROUTES)].join(', ');
  throw new Error(
    `"${route}" is not a route of the emulator: use "*", a route like "POST /payments/:id/refund", or one of ${names}`,
  );
}

/** How many faults each emulator injected, by mode (read back by GET /__emulator/faults). */
const injected = new WeakMap<Runtime['faults'], Record<FaultMode, number>>();

function count(runtime: Runtime, mode: FaultMode): void {
  let counts = injected.get(runtime.faults);
  if (!counts) {
    counts = { before: 0, after: 0, 'drop-after': 0, late: 0, slow: 0 };
    injected.set(runtime.faults, counts);
  }
  counts[mode] += 1;
}

export const BEFORE_MESSAGE = 'payment gateway unavailable (injected fault)';
export const AFTER_MESSAGE = 'payment gateway failed after the change was applied (injected fault)';

/** Checks rules given as JSON (admin API, options); throws an Error that says what is wrong. */
export function parseFaultRules(value: unknown): FaultRule[] {
  if (!Array.isArray(value)) throw new Error('faults must be a list of rules');
  return value.map((item: unknown, at) => {
    const where = `faults[${at}]`;
    if (!isObject(item)) throw new Error(`${where} must be an object`);
    const { route, mode, rate, latency_ms: latency, jitter_ms: jitter } = item;
    if (!FAULT_MODES.includes(mode as FaultMode)) {
      throw new Error(`${where}.mode must be one of ${FAULT_MODES.join(', ')}`);
    }
    if (route !== undefined && (typeof route !== 'string' || route.trim() === '')) {
      throw new Error(`${where}.route must be a route like "POST /payments/:id/refund" or a name`);
    }
    const rule: FaultRule = { mode: mode as FaultMode };
    if (route !== undefined) rule.route = (route as string).trim();
    if (rule.route !== undefined) {
      try {
        checkRoute(rule.route);
      } catch (error) {
        throw new Error(`${where}.route ${(error as Error).message}`);
      }
    }
    if (rate !== undefined) {
      if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) {
        throw new Error(`${where}.rate must be a number from 0 to 1`);
      }
      rule.rate = rate;
    }
    for (const [key, ms] of [
      ['latency_ms', latency],
      ['jitter_ms', jitter],
    ] as const) {
      if (ms === undefined) continue;
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
        throw new Error(`${where}.${key} must be a number of milliseconds, 0 or more`);
      }
      rule[key] = ms;
    }
    return rule;
  });
}

/**
 * One rule written ROUTE:MODE[:RATE[:MS]] (billing emulator start --fault), e.g. refund:after:0.1,
 * "POST /payments/:id/capture:before", *:slow:1:200 (MS is the latency of slow), refund:late:1:2000
 * (MS is how long the record stays out of reads).
 */
export function parseFaultSpec(spec: string): FaultRule {
  const parts = spec.split(':');
  const at = parts.findLastIndex((part) => FAULT_MODES.includes(part as FaultMode));
  const route = parts.slice(0, Math.max(at, 0)).join(':');
  const [rate, ms, extra] = parts.slice(at + 1);
  const number = (text: string) => (/^\d*\.?\d+$/.test(text) ? Number(text) : Number.NaN);
  const rule: Record<string, unknown> = { mode: parts[at] };
  if (route !== '') rule.route = route;
  if (rate !== undefined) rule.rate = number(rate);
  if (ms !== undefined) rule.latency_ms = number(ms);
  if (at < 0 || extra !== undefined) {
    throw new Error(`"${spec}" is not ROUTE:MODE[:RATE[:MS]] with a mode of ${FAULT_MODES.join(', ')}`);
  }
  if (route !== '') checkRoute(route);
  return parseFaultRules([rule])[0] as FaultRule;
}

/** "POST /payments/:id/refund" for POST /payments/12/refund. */
export function routeKey(method: string, rest: string): string {
  return `${method} ${rest.replace(/\/\d+(?=\/|$)/g, '/:id')}`;
}

function matches(rule: FaultRule, key: string): boolean {
  const route = rule.route;
  if (route === undefined || route === '*') return true;
  const wanted = resolveRoute(route) ?? route;
  return wanted.startsWith('/') ? key.slice(key.indexOf(' ') + 1) === wanted : key === wanted;
}

/**
 * Runs a request's handler under the rules that match it. A fault after applying is
 * injected only when the handler succeeded: a refused request changed nothing.
 */
export function withFaults(
  runtime: Runtime,
  method: string,
  rest: string,
  apply: () => Reply,
): AdminReply | Promise<AdminReply> {
  // No rules (as usual): the handler's answer as it is, without a promise in between.
  if (runtime.faults.rules.length === 0 && !runtime.faults.hidden?.size) return apply();
  return withRules(runtime, method, rest, apply);
}

async function withRules(
  runtime: Runtime,
  method: string,
  rest: string,
  apply: () => Reply,
): Promise<AdminReply> {
  const { rules, random } = runtime.faults;
  const key = routeKey(method, rest);
  const active = rules.filter((rule) => matches(rule, key));
  const hit = (rule: FaultRule) => random() < (rule.rate ?? 1);
  for (const rule of active) {
    if (rule.mode === 'slow' && hit(rule)) {
      count(runtime, 'slow');
      await delay((rule.latency_ms ?? 0) + random() * (rule.jitter_ms ?? 0));
    }
  }
  if (active.some((rule) => rule.mode === 'before' && hit(rule))) {
    count(runtime, 'before');
    throw new HttpError(502, BEFORE_MESSAGE);
  }
  const reply = apply();
  if (reply.status >= 300) return reply;
  if (method === 'GET') return withoutHidden(runtime, reply);
  const after = active.find(
    (rule) => (rule.mode === 'after' || rule.mode === 'drop-after' || rule.mode === 'late') && hit(rule),
  );
  if (!after) return reply;
  // The change stands even though the client hears of a failure.
  runtime.state.markChanged();
  count(runtime, after.mode);
  if (after.mode === 'drop-after') return { ...reply, drop: true };
  if (after.mode === 'late') hide(runtime, reply, after.latency_ms ?? LATE_MS);
  return errorReply(new HttpError(502, AFTER_MESSAGE));
}

/** How long a `late` fault's record stays out of reads, unless the rule says. */
const LATE_MS = 2000;

/** The record a request made (its answer's `payment`) stays out of reads for `ms`. */
function hide(runtime: Runtime, reply: Reply, ms: number): void {
  const made = isObject(reply.body) && isObject(reply.body.payment) ? reply.body.payment.id : undefined;
  if (typeof made !== 'number') return;
  runtime.faults.hidden ??= new Map();
  runtime.faults.hidden.set(made, Date.now() + ms);
}

/** A read's answer without the records a `late` fault still hides: left out of a list, 404 alone. */
function withoutHidden(runtime: Runtime, reply: Reply): Reply {
  const hidden = runtime.faults.hidden;
  if (!hidden?.size) return reply;
  const now = Date.now();
  for (const [id, from] of hidden) if (from <= now) hidden.delete(id);
  const unseen = (record: unknown) => isObject(record) && hidden.has(record.id as number);
  const body = reply.body;
  if (!isObject(body)) return reply;
  if (unseen(body.payment)) throw new HttpError(404, 'payment not found');
  if (Array.isArray(body.payments) && body.payments.some(unseen)) {
    return { ...reply, body: { ...body, payments: body.payments.filter((p) => !unseen(p)) } };
  }
  return reply;
}

/**
 * GET and POST /__emulator/faults: read or replace the rules ({"faults": [...]}; [] clears
 * them); `injected` counts the faults injected so far, by mode.
 */
export function faultsAdmin(runtime: Runtime, method: string, rawBody: string): AdminReply {
  if (method === 'POST') {
    const body = parseJson(rawBody);
    const list = isObject(body) ? body.faults : body;
    try {
      runtime.faults.rules = parseFaultRules(list ?? []);
    } catch (error) {
      throw new HttpError(400, (error as Error).message);
    }
  }
  const counts = injected.get(runtime.faults) ?? { before: 0, after: 0, 'drop-after': 0, late: 0, slow: 0 };
  return { status: 200, body: { faults: runtime.faults.rules, injected: { ...counts } } };
}
