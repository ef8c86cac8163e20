// The production guard (docs/contract.md, Confirming): every command whose description says it
// changes something at the service (`moves`: money, message, data) is confirmed on a production
// environment at a terminal, and refused without one unless --yes was given. A command asks in
// its own words here (what it moves, on what); one that did not is asked before its first write
// (write-guard.ts), so none writes unconfirmed.

import { UsageError } from '../../errors.js';
import { safeLine } from '../../format/terminal.js';
import type { Runtime } from './runtime.js';

export interface MoneyMove {
  /** A verb: refund, capture, reverse, charge. */
  action: string;
  paymentId?: number | string;
  amount?: string;
  currency?: string;
  /** What is acted on, when it is not one payment: "order 12", "1000 rows of refunds.csv". */
  subject?: string;
}

export function describeMove(move: MoneyMove): string {
  const money = move.amount === undefined ? '' : ` ${move.amount}${move.currency ? ` ${move.currency}` : ''}`;
  const subject = move.subject ?? `payment ${move.paymentId ?? '?'}`;
  if (money === '') return `${move.action} ${subject}`;
  return `${move.action}${money} ${move.action === 'refund' ? 'of' : 'on'} ${subject}`;
}

/** Returns when the move may go ahead; throws a UsageError (exit 2) when it may not. */
export async function confirmMoneyMove(rt: Runtime, move: MoneyMove): Promise<void> {
  // The currency comes from the service: a prompt is a terminal writer too.
  await confirmInProduction(rt, safeLine(describeMove(move)));
}

/** The same guard for a change that moves no money: "delete customer 3", "pause order 1042". */
export async function confirmInProduction(rt: Runtime, what: string): Promise<void> {
  // A dry run sends no write (write-guard.ts stops any): nothing to confirm.
  if (rt.writes.dryRun) return;
  const ctx = await rt.context();
  if (ctx.kind !== 'production') {
    rt.writes.confirmed = true;
    return;
  }
  // An environment guarded by its address (src/config/kind.ts) says why, and how to say otherwise.
  const byAddress = ctx.kindSource === 'address';
  const { guardedBecause } = await import('../../config/kind.js');
  const overridden = ctx.kindAddress !== undefined && !/^base_url/.test(ctx.kindAddress.where);
  await confirmOrYes(rt, {
    refusal: byAddress
      ? `refusing to ${what} on environment "${ctx.envName}" without confirmation: ${safeLine(guardedBecause({ kind: ctx.kind, source: ctx.kindSource, address: ctx.kindAddress }))}, so it is guarded like production`
      : `refusing to ${what} on production (environment "${ctx.envName}") without confirmation`,
    hint: byAddress
      ? overridden
        ? 'pass --yes to confirm; if that address is a sandbox, save it as one: billing login --env NAME --kind sandbox --base-url URL'
        : 'pass --yes to confirm; if it is a sandbox, log in again with --kind sandbox'
      : 'pass --yes to confirm (there is no terminal to ask on)',
    question: `Production (${ctx.envName}): ${what}?`,
  });
  rt.writes.confirmed = true;
}

/**
 * Asks at a terminal; without one, refuses (exit 2, nothing done) unless --yes was given.
 * For anything a user may not mean: production money moves, another's emulator.
 */
export async function confirmOrYes(
  rt: Runtime,
  o: { refusal: string; question: string; hint?: string; cancelled?: string },
): Promise<void> {
  if (rt.flags.yes) return;
  if (!rt.canPrompt) {
    throw new UsageError(o.refusal, {
      hint: o.hint ?? 'pass --yes to confirm (there is no terminal to ask on)',
    });
  }
  const { confirm } = await import('@inquirer/prompts');
  const ok = await confirm(
    { message: o.question, default: false },
    { input: rt.io.stdin, output: rt.io.stderr, signal: rt.signal },
  );
  if (!ok) throw new UsageError(o.cancelled ?? 'cancelled: nothing was sent');
}
