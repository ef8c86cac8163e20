// The guards of `billing mcp`, read from its flags before the server starts: which families
// of write tools exist (--allow), the refund caps per call and per session, per currency
// (--max-refund, --max-total), and the check of one refund against them, in minor units,
// before anything is sent. Pure: no I/O, so every rule is tested on its own too.

import { AmountError, fromMinor, toMinor } from '../domain/money.js';
import { BillingError, EXIT, UsageError } from '../errors.js';

/**
 * A write a guard refused (a cap, a family, a customer): class `policy`, not a usage error,
 * with what is left under the cap when a cap refused it. Exit 2, nothing sent.
 */
export class PolicyError extends BillingError {
  override name = 'PolicyError';
  constructor(
    message: string,
    readonly left?: string,
    options?: { hint?: string },
  ) {
    super('policy', EXIT.usage, message, options);
  }
}

/** The period of --max-total: the UTC day (`EUR:200.00/day`, the default). */
export const CAP_PERIOD = 'day';

/** The start (ms) of the period `at` falls in: its UTC day. */
export function periodStart(at: number): number {
  const d = new Date(at);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
}

/** The families of write tools: each is off unless --allow names it. */
export const FAMILIES = {
  refunds: ['refund_payment'],
  captures: ['capture_payment', 'reverse_payment'],
  links: ['send_payment_link'],
  lifecycle: ['pause_order', 'resume_order', 'cancel_order'],
} as const;

export type Family = keyof typeof FAMILIES;
const FAMILY_NAMES = Object.keys(FAMILIES) as Family[];

/** A cap per currency; `*` is the cap of any currency not named. Minor units. */
export type Caps = ReadonlyMap<string, bigint>;

export interface Guards {
  allowed: ReadonlySet<Family>;
  maxRefund?: Caps;
  maxTotal?: Caps;
  /** --customers: writes only on these customers' orders and payments; undefined: any customer. */
  customers?: ReadonlySet<number>;
}

export interface GuardFlags {
  allow?: string[];
  maxRefund?: string;
  maxTotal?: string;
  customers?: string[];
}

/** --customers 2,17 (repeatable): customer ids, each a positive whole number. */
export function parseCustomers(values: readonly string[]): Set<number> {
  const ids = new Set<number>();
  for (const part of values.flatMap((v) => v.split(',')).map((v) => v.trim())) {
    if (part === '') continue;
    if (!/^\d+$/.test(part) || Number(part) < 1 || !Number.isSafeInteger(Number(part))) {
      throw new UsageError(`--customers: "${part}" is not a customer id`, {
        hint: 'give customer ids, comma-separated: --customers 2,17',
      });
    }
    ids.add(Number(part));
  }
  if (ids.size === 0) throw new UsageError('--customers is empty', { hint: 'for example --customers 2,17' });
  return ids;
}

/** Why a write on an order of `customerId` may not be made; undefined when it may. */
export function customerRefusal(guards: Guards, what: string, customerId: unknown): string | undefined {
  if (guards.customers === undefined) return undefined;
  if (typeof customerId === 'number' && guards.customers.has(customerId)) return undefined;
  const whose = typeof customerId === 'number' ? `customer ${customerId}` : 'no customer the service names';
  return `${what} belongs to ${whose}, not to one this session may act for (--customers ${[...guards.customers].join(',')})`;
}

/** --allow refunds,links (repeatable): the families, each checked. */
export function parseAllow(values: readonly string[] | undefined): Set<Family> {
  const allowed = new Set<Family>();
  for (const name of (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim().toLowerCase())) {
    if (name === '') continue;
    if (!(FAMILY_NAMES as string[]).includes(name)) {
      throw new UsageError(`--allow: unknown tool family "${name}"`, {
        hint: `use one or more of ${FAMILY_NAMES.join(', ')}, comma-separated`,
      });
    }
    allowed.add(name as Family);
  }
  return allowed;
}

/**
 * "50.00" (every currency) or "EUR:50.00,USD:40" (each currency its own; others refused), or
 * both ("25,EUR:50"). A cap of 0 is allowed: it refuses every refund in that currency.
 */
export function parseCaps(flag: string, value: string): Caps {
  const caps = new Map<string, bigint>();
  for (const part of value.split(',').map((p) => p.trim())) {
    if (part === '') continue;
    const at = part.indexOf(':');
    const currency = at < 0 ? '*' : part.slice(0, at).trim().toUpperCase();
    const amount = at < 0 ? part : part.slice(at + 1).trim();
    if (currency !== '*' && !/^[A-Z]{3}$/.test(currency)) {
      throw new UsageError(`${flag}: "${part}" does not start with a currency code`, {
        hint: `give an amount (${flag} 50.00) or currency:amount pairs (${flag} EUR:50.00,USD:40.00)`,
      });
    }
    let minor: bigint;
    try {
      minor = toMinor(amount);
    } catch (err) {
      if (!(err instanceof AmountError)) throw err;
      throw new UsageError(`${flag}: ${err.message}`, {
        hint: `give an amount (${flag} 50.00) or currency:amount pairs (${flag} EUR:50.00,USD:40.00)`,
      });
    }
    if (caps.has(currency)) {
      throw new UsageError(
        `${flag} names ${currency === '*' ? 'an amount for every currency' : currency} twice`,
      );
    }
    caps.set(currency, minor);
  }
  if (caps.size === 0) throw new UsageError(`${flag} is empty`, { hint: `for example ${flag} 50.00` });
  return caps;
}

export function parseGuards(flags: GuardFlags): Guards {
  const allowed = parseAllow(flags.allow);
  const refunds = allowed.has('refunds');
  if (flags.customers !== undefined && allowed.size === 0)
    throw new UsageError('--customers goes with --allow');
  const customers = flags.customers === undefined ? {} : { customers: parseCustomers(flags.customers) };
  for (const [flag, value] of [
    ['--max-refund', flags.maxRefund],
    ['--max-total', flags.maxTotal],
  ] as const) {
    if (refunds && value === undefined) {
      throw new UsageError(
        `--allow refunds needs ${flag}: refunds are made only within caps given at start`,
        {
          hint: 'for example --max-refund 50.00 --max-total 200.00 (or per currency: EUR:50.00,USD:40.00)',
        },
      );
    }
    if (!refunds && value !== undefined) throw new UsageError(`${flag} goes with --allow refunds`);
  }
  if (!refunds) return { allowed, ...customers };
  return {
    allowed,
    ...customers,
    maxRefund: parseCaps('--max-refund', flags.maxRefund as string),
    maxTotal: parseCaps('--max-total', withoutPeriod(flags.maxTotal as string)),
  };
}

/** "EUR:200.00/day" → "EUR:200.00"; a period other than the day is refused. */
function withoutPeriod(value: string): string {
  const at = value.lastIndexOf('/');
  if (at < 0) return value;
  const period = value
    .slice(at + 1)
    .trim()
    .toLowerCase();
  if (period !== CAP_PERIOD) {
    throw new UsageError(`--max-total: "/${period}" is not a period this cap keeps`, {
      hint: `the cap is per day (the service's UTC day), across every session on this service: --max-total EUR:200.00/${CAP_PERIOD} (or without /${CAP_PERIOD})`,
    });
  }
  return value.slice(0, at);
}

function capOf(caps: Caps, currency: string): bigint | undefined {
  return caps.get(currency) ?? caps.get('*');
}

/** "50.00 EUR" */
function money(minor: bigint, currency: string): string {
  return `${fromMinor(minor)} ${currency}`;
}

/**
 * Why a refund of `amount` in `currency` may not be made, given what was refunded already in
 * that currency this period (`spent`, minor units: every session of this environment and
 * profile on the cap's day, src/mcp/cap-day.ts); undefined when it may. `left` says what the day's cap has left.
 */
export function refundRefusal(
  guards: Guards,
  o: { amount: string; currency: string | null; spent: bigint },
): { reason: string; left?: string } | undefined {
  const reason = refusalReason(guards, o);
  if (reason === undefined) return undefined;
  const perDay = o.currency === null || !guards.maxTotal ? undefined : capOf(guards.maxTotal, o.currency);
  return perDay === undefined
    ? { reason }
    : { reason, left: money(perDay > o.spent ? perDay - o.spent : 0n, o.currency as string) };
}

function refusalReason(
  guards: Guards,
  o: { amount: string; currency: string | null; spent: bigint },
): string | undefined {
  const { maxRefund, maxTotal } = guards;
  if (!maxRefund || !maxTotal) return 'refunds are not allowed in this session (no --allow refunds)';
  if (o.currency === null) return 'the payment has no currency, so it cannot be held to the caps';
  const amount = toMinor(o.amount);
  const perCall = capOf(maxRefund, o.currency);
  const perSession = capOf(maxTotal, o.currency);
  if (perCall === undefined || perSession === undefined) {
    const flag = perCall === undefined ? '--max-refund' : '--max-total';
    return `no ${flag} was given for ${o.currency}, so refunds in ${o.currency} are not allowed in this session`;
  }
  if (amount > perCall) {
    return `a refund of ${money(amount, o.currency)} is above the cap of ${money(perCall, o.currency)} a refund (--max-refund)`;
  }
  if (o.spent + amount > perSession) {
    const left = perSession > o.spent ? perSession - o.spent : 0n;
    return `a refund of ${money(amount, o.currency)} would bring today's refunds (the service's UTC day, every session on this service) to ${money(o.spent + amount, o.currency)}, above the cap of ${money(perSession, o.currency)} a day (--max-total; ${money(left, o.currency)} left)`;
  }
  return undefined;
}

/** What the guards allow, in one line for stderr at start and for the assistant. */
export function describeGuards(guards: Guards): string {
  if (guards.allowed.size === 0) return 'read-only (no --allow)';
  const caps = (c: Caps | undefined) =>
    [...(c ?? [])]
      .map(([cur, minor]) => (cur === '*' ? fromMinor(minor) : `${cur} ${fromMinor(minor)}`))
      .join(', ');
  const families = FAMILY_NAMES.filter((f) => guards.allowed.has(f)).join(', ');
  const money = guards.maxRefund
    ? `; refunds at most ${caps(guards.maxRefund)} each, ${caps(guards.maxTotal)} a day (UTC) across sessions`
    : '';
  const whose = guards.customers ? `; only for customers ${[...guards.customers].join(', ')}` : '';
  return `writes allowed: ${families}${money}${whose}`;
}
