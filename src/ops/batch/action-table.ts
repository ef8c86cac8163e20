// The table of actions: one entry per action the batch engine runs (./engine.ts), holding
// every fact about it that is not its code — what it acts on, the request it sends, its done
// state, how the record shows it done, its words for help. Read from here, never restated:
// --dry-run's preview (../preview.ts), the batch flags and help of its command (`batchFlagsOf`,
// typed into the options of a description that says `batch: NAME`, ../verb.ts), a command
// declared from its entry alone (`summary`, ../action-verbs.ts), the journal's
// row states (./journal.ts), the MCP write tools' done state. Its code (what it reads, plans
// and sends) is ../actions.ts for an order, ../moves.ts for a payment; ../many.ts pairs them
// by name, and the compiler names a missing one. Data only: the CLI's declarations import it,
// so nothing here loads the API.

import type { OrderStatus } from '../../domain/orders.js';
import type { RouteName } from '../../domain/routes.js';

/** How the service's records show an action done. */
export type DoneWhen =
  /** The order reads this status (read before sending: nothing to do). */
  | { status: OrderStatus }
  /** A new payment of one of these kinds on the order, not among those there were before. */
  | { makes: readonly ('refund' | 'capture' | 'reversal' | 'debit' | 'preauthorization')[] }
  /** Nothing reads it back (a message): only the service's 2xx answer says it was done. */
  | { answered: true };

/** A flag a batch command takes, in the shape of a command's description (src/cli/kit/verb.ts). */
export interface BatchFlag {
  readonly flag: string;
  readonly help: string;
  readonly default?: string;
}

export interface ActionEntry {
  /** The command that runs it on many ids or a file: "orders pause". */
  command: string;
  /** What a row's id is. */
  on: 'order' | 'payment';
  /** The request a row sends (src/domain/routes.ts); its body is the route's (an amount, when it takes one). */
  request: RouteName;
  /** The journal state of a row done, and the status of its result row. */
  done: string;
  doneWhen: DoneWhen;
  /** "pause", "send the payment link by e-mail to": said in the confirmation and the dry run. */
  verb: string;
  /** The result column of a row done, from the record it made or changed (default: the done word). */
  result?: 'recipient' | 'payment';
  /** Flags of its batch beyond every batch's. */
  flags?: readonly BatchFlag[];
  /** A command declared from this entry alone (ids or --file, one id a batch of one): its description. */
  summary?: string;
  /** Its help's examples, for a command declared from this entry. */
  examples?: readonly string[];
}

/** Every batch's (docs/at-most-once.md): a row whose outcome is unknown is sent again only when asked. */
export const RESEND_IN_DOUBT = {
  flag: '--resend-in-doubt',
  help: 'send again, with their first Idempotency-Key, the rows an earlier run sent whose outcome is unknown and that the service does not show; without it they are never sent again (production: confirmed, rows listed)',
} as const;

/** A money batch's: rows the service shows done before (a refund of that amount this batch did not make) are sent. */
export const AGAIN = {
  flag: '--again',
  help: "refund rows whose payment already shows a refund of that amount that this batch did not make (skipped as 'done before' without it)",
} as const;

export const ACTIONS = {
  'email-link': {
    command: 'links email',
    on: 'order',
    request: 'sendEmailLink',
    done: 'sent',
    doneWhen: { answered: true },
    verb: 'send the payment link by e-mail to',
    result: 'recipient',
  },
  'sms-link': {
    command: 'links sms',
    on: 'order',
    request: 'sendSmsLink',
    done: 'sent',
    doneWhen: { answered: true },
    verb: 'send the payment link by SMS to',
    result: 'recipient',
  },
  pay: {
    command: 'orders pay',
    on: 'order',
    request: 'payWithCard',
    done: 'paid',
    doneWhen: { makes: ['debit', 'preauthorization'] },
    verb: "charge the customer's stored card for",
    result: 'payment',
  },
  pause: {
    command: 'orders pause',
    on: 'order',
    request: 'pauseOrder',
    done: 'paused',
    doneWhen: { status: 'paused' },
    verb: 'pause',
  },
  resume: {
    command: 'orders resume',
    on: 'order',
    request: 'resumeOrder',
    done: 'resumed',
    doneWhen: { status: 'active' },
    verb: 'resume',
  },
  cancel: {
    command: 'orders cancel',
    on: 'order',
    request: 'cancelOrder',
    done: 'cancelled',
    doneWhen: { status: 'cancelled' },
    verb: 'cancel',
  },
  capture: {
    command: 'payments capture',
    on: 'payment',
    request: 'capturePayment',
    done: 'captured',
    doneWhen: { makes: ['capture'] },
    verb: 'capture in full',
    result: 'payment',
  },
  reverse: {
    command: 'payments reverse',
    on: 'payment',
    request: 'reversePayment',
    done: 'reversed',
    doneWhen: { makes: ['reversal'] },
    verb: 'reverse',
    result: 'payment',
  },
  refund: {
    command: 'payments refund',
    on: 'payment',
    request: 'refundPayment',
    done: 'refunded',
    doneWhen: { makes: ['refund'] },
    verb: 'refund',
    result: 'payment',
    flags: [AGAIN],
  },
} as const satisfies Record<string, ActionEntry>;

export type ActionName = keyof typeof ACTIONS;
/** The done states of every action: a journal's row states beside started, failed, in doubt. */
export type DoneState = (typeof ACTIONS)[ActionName]['done'];

export function actionOf(name: ActionName): ActionEntry {
  return ACTIONS[name];
}

/** The action a command runs on many ("orders pause" → pause); undefined: it takes no batch. */
export function actionOfCommand(command: string): ActionName | undefined {
  return (Object.keys(ACTIONS) as ActionName[]).find((name) => ACTIONS[name].command === command);
}

/** The settle window of a money move or message whose answer was lost (docs/decisions.md). */
export const SETTLE_WINDOW = {
  flag: '--settle-window <seconds>',
  help: 'after an answer that may hide a move (5xx, timeout, lost connection), read the record this long for it before calling it in doubt; never sent twice meanwhile (default 10)',
} as const;

/** The flags every batch takes (src/ops/batch/command.ts reads them); `on` is what an id is. */
export function batchFlags(on: ActionEntry['on']) {
  return [
    {
      flag: '--file <path>',
      help: `the ${on}s to act on: CSV with an id (or ${on}_id) column, or NDJSON such as billing ${on}s list -o ndjson prints; - for stdin`,
    },
    {
      flag: '--journal <path>',
      help: 'journal of the run (default: <file>.journal; for ids or stdin, one in the state directory)',
    },
    {
      flag: '--amend',
      help: 'go on with the batch of this journal using the rows as they are now (rows done stay done)',
    },
    { flag: '--new-batch', help: 'move the journal aside and start a new batch, even of rows run before' },
    {
      flag: '--break-lock',
      help: "take the journal's lock even when it may be held from another host or container",
    },
    SETTLE_WINDOW,
    RESEND_IN_DOUBT,
    {
      flag: '--concurrency <n>',
      help: 'rows in flight at once with several ids or --file (1 to 64)',
      default: '4',
    },
    { flag: '--dry-run', help: 'print the requests that would be sent, with counts, and send nothing' },
  ] as const;
}

/** The flags of the batch of an action, as types: every batch's, then its own. */
export type BatchFlagsOf<A extends ActionName> = readonly [
  ...ReturnType<typeof batchFlags>,
  ...((typeof ACTIONS)[A] extends { flags: infer F extends readonly BatchFlag[] } ? F : []),
];

/** The flags of the batch of an action: every batch's, then its own (`--resend-in-doubt`). */
export function batchFlagsOf<A extends ActionName>(name: A): BatchFlagsOf<A> {
  const entry: ActionEntry = ACTIONS[name];
  return [...batchFlags(entry.on), ...(entry.flags ?? [])] as unknown as BatchFlagsOf<A>;
}

/** Help of a command that takes many ids: what a batch does and what it prints. */
export function batchHelpOf(name: ActionName): string {
  const { on, done, doneWhen } = actionOf(name);
  const shown = 'status' in doneWhen ? `; an ${on} read ${doneWhen.status} already is sent nothing` : '';
  return (
    `\nMany at once: several ${on} ids, --file FILE (CSV or NDJSON, checked whole\n` +
    'before anything is sent), or --file - (the NDJSON a list prints, e.g.\n' +
    `billing ${on === 'order' ? 'orders list' : 'orders payments ID'} -o ndjson).\n\n` +
    `One result a row, in input order: id, status (${done}, skipped, nothing_to_do,\n` +
    'failed or in_doubt), result, error; a summary on stderr; exit 9 when a row failed.\n' +
    'The journal records each row before and after it is sent: the same rows run again\n' +
    `skip what is ${done}${shown} (docs/decisions.md, "Act on many, once").\n`
  );
}
