import { Chalk, type ChalkInstance } from 'chalk';

export { shouldColor } from './formats.js';
export type { ChalkInstance };

/** A chalk that colours exactly when we decided so (basic 16 colours are all we use). */
export function chalkFor(color: boolean): ChalkInstance {
  return new Chalk({ level: color ? 1 : 0 });
}

type Tone = 'good' | 'waiting' | 'quiet' | 'attention' | 'trouble' | 'bad';

// Order, payment, scheduled-payment and refund statuses share one palette.
const TONES: Record<string, Tone> = {
  active: 'good',
  complete: 'good',
  succeeded: 'good',
  paid: 'good',
  refunded: 'good',
  pending: 'waiting',
  registered: 'waiting',
  scheduled: 'waiting',
  draft: 'quiet',
  skipped: 'quiet',
  merged: 'quiet',
  paused: 'attention',
  review: 'attention',
  failed: 'trouble',
  suspended: 'trouble',
  rejected: 'bad',
  cancelled: 'bad',
  canceled: 'bad',
};

function toneStyle(tone: Tone | undefined, c: ChalkInstance): (text: string) => string {
  switch (tone) {
    case 'good':
      return c.green;
    case 'waiting':
      return c.cyan;
    case 'quiet':
      return c.dim;
    case 'attention':
      return c.yellow;
    case 'trouble':
      return c.magenta;
    case 'bad':
      return c.red;
    default:
      return (text) => text;
  }
}

/** The colour of a status; unknown statuses stay plain. */
export function statusStyle(status: string, c: ChalkInstance): (text: string) => string {
  return toneStyle(TONES[status.trim().toLowerCase()], c);
}

/**
 * For payments and refund results a failure is final (nothing retries it by itself),
 * so it is red there, where an order's "failed" can still be retried.
 */
export function outcomeStyle(status: string, c: ChalkInstance): (text: string) => string {
  const key = status.trim().toLowerCase();
  return key === 'failed' ? c.red : statusStyle(key, c);
}
