// The day of the MCP refund cap (--max-total), issue 33 §4: the service's day, never this
// machine's alone. The clock is the service's `Date` header plus the monotonic time since that
// answer came; the local clock is believed only while it agrees with it within the settle
// bound, and the cap's ledger is a floor: its latest day for the service is never gone back
// from. So a clock moved a day ahead or back does not make a day "new". Pure: tested on its own.

import { SETTLE_MS, type ServiceClock } from '../api/client.js';

/** How far the local clock may be from the service's and still be believed: the settle window and half a second. */
export const CLOCK_BOUND_MS = SETTLE_MS + 500;

/** "2026-11-29": the UTC day `at` (ms) falls in. */
export function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

export interface CapDay {
  /** The cap's day, "YYYY-MM-DD" (UTC). */
  day: string;
  /** Now, as the cap takes it (ms since the epoch). */
  now: number;
  /** Which clock gave the day: the local one (it agrees with the service's), the service's, or the ledger's floor. */
  by: 'local' | 'service' | 'ledger';
}

/**
 * The cap's day, or undefined when the service never sent a `Date` header (no day can be
 * trusted then: the caller refuses the move). `monotonic` is monotonicMs() now, `local`
 * Date.now(), `floor` the latest day the ledger holds for this service.
 */
export function capDay(o: {
  service: ServiceClock | undefined;
  monotonic: number;
  local: number;
  floor?: string | undefined;
}): CapDay | undefined {
  if (o.service === undefined) return undefined;
  const serviceNow = o.service.date + Math.max(0, o.monotonic - o.service.at);
  const agrees = Math.abs(o.local - serviceNow) <= CLOCK_BOUND_MS;
  const now = agrees ? o.local : serviceNow;
  const day = dayOf(now);
  if (o.floor !== undefined && o.floor > day) return { day: o.floor, now, by: 'ledger' };
  return { day, now, by: agrees ? 'local' : 'service' };
}
