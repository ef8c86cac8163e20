// The commands that take many ids or a file (the table of src/ops/batch/action-table.ts:
// links email|sms, orders pay|pause|resume|cancel, payments capture|reverse), as batch
// commands (./batch/command.ts) over their actions' code (./actions.ts, ./moves.ts).

import { UsageError } from '../../errors.js';
import { ACTIONS, type ActionName } from '../../ops/batch/action-table.js';
import { type BatchCommand, type BatchFlags, isBatch } from '../../ops/batch/command.js';
import { ORDER_ACTIONS, orderRow } from '../../ops/batch/on-orders.js';
import { commandRow, PAYMENT_ACTIONS } from '../../ops/batch/on-payments.js';
import { runBatchCommand } from '../../ops/batch/pipeline.js';
import type { ActionPlan } from '../../ops/batch/row.js';
import { needArgument } from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import type { Handler } from './verb.js';

/** The code of each action of the table; one missing is a compile error here. */
const CODE = { ...ORDER_ACTIONS, ...PAYMENT_ACTIONS } satisfies Record<ActionName, unknown>;

/** The action a batch command runs (`payments refund --file` has its own, with amounts: ./refunds/bulk.ts). */
export type ManyName = ActionName;

// biome-ignore lint/suspicious/noExplicitAny: each action pairs its own row, state and plan types
type AnyCommand = BatchCommand<any, any, ActionPlan, any>;

function commandOf(name: ManyName): AnyCommand {
  const rowOf =
    ACTIONS[name].on === 'order'
      ? orderRow
      : (id: number, index: number, line: number) => ({ ...commandRow(id, undefined), index, line });
  return { action: name, makeAction: CODE[name] as AnyCommand['makeAction'], rowOf };
}

export function many(rt: Runtime, name: ManyName, args: string[], flags: BatchFlags): Promise<void> {
  return runBatchCommand(rt, args, flags, commandOf(name));
}

/** The code of a command declared from the table alone: ids or --file, one id a batch of one. */
export function handlerOf(name: ManyName): Handler<BatchFlags> {
  return async (rt: Runtime, args: string[], flags: BatchFlags) => {
    if (args.length === 0 && flags.file === undefined)
      throw needArgument(`${ACTIONS[name].on} id`, '--file FILE');
    await many(rt, name, args, flags);
  };
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
    throw needArgument(`${ACTIONS[name].on} id`, '--file FILE');
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
