// A batch command's parts beside its pipeline (./pipeline.ts): its flags, what a command
// declares of itself, and the production confirmation's words for rows sent again. (The run
// step is ./engine.ts, executeBatch.)

import type { ApiClient } from '../../api/client.js';
import { plural } from '../../format/text.js';
import type { Runtime } from '../runtime/runtime.js';
import type { ActionName } from './action-table.js';
import type { Action, ActionPlan, BatchRecord } from './row.js';
import type { BatchRow } from './rows.js';

export const MAX_CONCURRENCY = 64;

export interface BatchFlags {
  file?: string;
  journal?: string;
  amend?: boolean;
  newBatch?: boolean;
  breakLock?: boolean;
  concurrency?: string;
  dryRun?: boolean;
}

export interface BatchCommand<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord> {
  /** Its entry in the table of actions (./actions.ts): what a row's id is, its words, its request. */
  action: ActionName;
  makeAction(client: ApiClient, rt?: Runtime): Action<R, S, P, T>;
  rowOf(id: number, index: number, line: number): R;
}

/** Whether the command was given many (ids or --file) rather than one id: one id keeps its own output. */
export function isBatch(args: string[], flags: BatchFlags): boolean {
  return args.length > 1 || flags.file !== undefined;
}

/** The production confirmation's words for --resend-in-doubt: each row it sends again. */
export function resendLine(rt: Runtime, inDoubt: readonly string[]): string {
  if (!rt.flags.resendInDoubt || inDoubt.length === 0) return '';
  return `, sending again ${plural(inDoubt.length, 'row')} in doubt (--resend-in-doubt): ${inDoubt.join('; ')}`;
}
