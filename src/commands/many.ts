// The commands that take many ids or a file (links email|sms, orders pay|pause|resume|cancel,
// payments capture|reverse), as batch commands (./batch/command.ts) over their actions.

import { routes } from '../api/routes.js';
import { UsageError } from '../errors.js';
import {
  cancelAction,
  emailLinkAction,
  orderRow,
  pauseAction,
  payAction,
  resumeAction,
  smsLinkAction,
} from './actions.js';
import { needArgument } from './args.js';
import { type BatchCommand, type BatchFlags, isBatch, runBatchCommand } from './batch/command.js';
import type { ActionPlan } from './batch/engine.js';
import { captureAction, commandRow, type PaymentRow, reverseAction } from './moves.js';
import type { Runtime } from './runtime.js';

const orderRowOf = (id: number, index: number, line: number) => orderRow(id, index, line);
const paymentRowOf = (id: number, index: number, line: number): PaymentRow => ({
  ...commandRow(id, undefined),
  index,
  line,
});

// biome-ignore lint/suspicious/noExplicitAny: each command pairs its own row, state and plan types
type AnyCommand = BatchCommand<any, any, ActionPlan, any>;

const resultId = (o: { resultId: number | null }) => (o.resultId === null ? '' : `payment ${o.resultId}`);

const COMMANDS = {
  'email-link': {
    what: 'order',
    verb: 'send the payment link by e-mail to',
    doneWord: 'sent',
    makeAction: emailLinkAction,
    rowOf: orderRowOf,
    route: routes.sendEmailLink,
    resultOf: (o) => (typeof o.record?.to === 'string' ? `to ${o.record.to}` : 'sent'),
  },
  'sms-link': {
    what: 'order',
    verb: 'send the payment link by SMS to',
    doneWord: 'sent',
    makeAction: smsLinkAction,
    rowOf: orderRowOf,
    route: routes.sendSmsLink,
    resultOf: (o) => (typeof o.record?.to === 'string' ? `to ${o.record.to}` : 'sent'),
  },
  pay: {
    what: 'order',
    verb: "charge the customer's stored card for",
    doneWord: 'paid',
    makeAction: payAction,
    rowOf: orderRowOf,
    route: routes.payWithCard,
    resultOf: resultId,
  },
  pause: {
    what: 'order',
    verb: 'pause',
    doneWord: 'paused',
    makeAction: pauseAction,
    rowOf: orderRowOf,
    route: routes.pauseOrder,
    resultOf: () => 'paused',
  },
  resume: {
    what: 'order',
    verb: 'resume',
    doneWord: 'resumed',
    makeAction: resumeAction,
    rowOf: orderRowOf,
    route: routes.resumeOrder,
    resultOf: () => 'resumed',
  },
  cancel: {
    what: 'order',
    verb: 'cancel',
    doneWord: 'cancelled',
    makeAction: cancelAction,
    rowOf: orderRowOf,
    route: routes.cancelOrder,
    resultOf: () => 'cancelled',
  },
  capture: {
    what: 'payment',
    verb: 'capture in full',
    doneWord: 'captured',
    makeAction: captureAction,
    rowOf: paymentRowOf,
    route: routes.capturePayment,
    resultOf: resultId,
  },
  reverse: {
    what: 'payment',
    verb: 'reverse',
    doneWord: 'reversed',
    makeAction: reverseAction,
    rowOf: paymentRowOf,
    route: routes.reversePayment,
    resultOf: resultId,
  },
} satisfies Record<string, AnyCommand>;

export type ManyName = keyof typeof COMMANDS;

export function many(rt: Runtime, name: ManyName, args: string[], flags: BatchFlags): Promise<void> {
  return runBatchCommand(rt, args, flags, COMMANDS[name] as AnyCommand);
}

/** The batch form of a command, when it was given several ids or --file; undefined: one id. */
export async function batchOf(
  rt: Runtime,
  name: ManyName,
  args: string[],
  flags: BatchFlags,
  singleOnly: Record<string, unknown> = {},
): Promise<true | undefined> {
  if (args.length === 0 && flags.file === undefined) {
    throw needArgument(`${COMMANDS[name].what} id`, '--file FILE');
  }
  // capture and reverse of one id are a batch of one row with the record as output (payments.ts).
  const ownJournal = name === 'capture' || name === 'reverse';
  // One id with --journal is a batch of one: a script that retries it acts once.
  const journaled = !ownJournal && flags.journal !== undefined;
  if (!isBatch(args, flags) && !journaled) {
    if (!ownJournal) {
      const first = [
        flags.amend && '--amend',
        flags.newBatch && '--new-batch',
        flags.breakLock && '--break-lock',
      ].find(Boolean);
      if (first) throw new UsageError(`${first} goes with --journal FILE, several ids or --file`);
    }
    return undefined;
  }
  const given = Object.entries(singleOnly).find(([, value]) => value !== undefined);
  if (given) throw new UsageError(`${given[0]} goes with one id, not with several ids or --file`);
  await many(rt, name, args, flags);
  return true;
}
