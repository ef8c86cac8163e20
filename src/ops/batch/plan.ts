// The plan step of opening a batch (./open.ts): what each row sends. A row's amount is what it
// moves in all; this batch's earlier moves under rows --amend replaced count against it.

import { fromMinor, isAmount, toMinor } from '../../domain/money.js';
import { UsageError } from '../../errors.js';
import type { Journal } from './journal.js';
import type { BatchSpec } from './reconcile.js';
import { describeKey, idOfKey } from './rows.js';

/**
 * A row's amount is what that row refunds in all. When --amend changed it, what this batch
 * already moved on that payment under rows no longer asked (their keys are gone from the
 * input) counts: a larger amount sends the difference, a smaller one is refused, saying what
 * was already moved. Worked out on every run, so a re-run of an amended batch sends no more.
 */
export function amountsToSend(spec: BatchSpec, journal: Journal): Map<string, string> {
  const asked = new Set(spec.rows.map((r) => r.key));
  const moved = new Map<string, bigint>();
  for (const h of journal.histories()) {
    const amount = h.last.amount;
    if (asked.has(h.last.key) || h.last.state !== spec.done || amount === undefined || !isAmount(amount))
      continue;
    const id = idOfKey(h.last.key);
    moved.set(id, (moved.get(id) ?? 0n) + toMinor(amount));
  }
  const toSend = new Map<string, string>();
  for (const row of spec.rows) {
    const id = idOfKey(row.key);
    const already = moved.get(id);
    if (already === undefined || row.amount === undefined || journal.get(row.key)?.last.state === spec.done)
      continue;
    // The first row of the payment takes what was moved under its earlier amounts.
    moved.delete(id);
    const wanted = toMinor(row.amount);
    if (wanted <= already) {
      throw new UsageError(
        `line ${row.line}: ${describeKey(row.key, spec.what)} asks for ${row.amount} in all, and this batch already ${spec.done} ${fromMinor(already)} on ${spec.what} ${id} under its earlier amount; nothing was sent`,
        {
          hint: `a row's amount is what it moves in all: give more than ${fromMinor(already)} (the difference is sent); what was ${spec.done} is not taken back`,
        },
      );
    }
    toSend.set(row.key, fromMinor(wanted - already));
  }
  return toSend;
}
