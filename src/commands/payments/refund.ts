// billing payments refund: its description and its code.

import { planRefund, readRefundState } from '../../api/refunds.js';
import { PRODUCTION_GUARD } from '../../cli/kit/help-text.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { UsageError } from '../../errors.js';
import { AGAIN } from '../../ops/batch/action-table.js';
import * as parse from '../../ops/runtime/args.js';
import { writePreviews } from '../../ops/runtime/preview.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { DRY_RUN, JOURNAL_HELP, journalFlags } from './journal.js';
import { money, moveOne, preview } from './run.js';

export const refundVerb = verb({
  name: 'refund',
  place: 50,
  summary: 'refund a payment or capture, in full or in part; or many, from a CSV or NDJSON file',
  args: [
    {
      name: '[ids...]',
      help: 'payment id (without --file); several ids are each refunded in full',
      id: 'payment',
    },
  ],
  flags: [
    { flag: '--amount <amount>', help: 'refund only this much, like 12.50 (default: all that is left)' },
    {
      flag: '--file <path>',
      help: 'CSV with the header payment_id,amount (amount empty: full refund) or NDJSON; - for stdin',
    },
    { flag: '--concurrency <n>', help: 'refunds in flight at once with --file (1 to 64)', default: '4' },
    DRY_RUN,
    AGAIN,
    ...journalFlags(
      'journal of the run (with --file: default <file>.journal, needed with --file -; with one id: a retry refunds nothing twice)',
    ),
  ],
  examples: [
    'billing payments refund 312',
    'billing payments refund 312 --amount 5.00',
    'billing payments refund 312 313 314   # each in full, one result a row',
    'billing payments refund --file refunds.csv -o csv > results.csv',
    'cat refunds.ndjson | billing payments refund --file - --journal refunds.journal --yes -o ndjson',
    'billing payments refund 312 --amount 5.00 --journal refund-312.journal   # safe to retry',
    'billing payments refund --file refunds.csv --amend       # the file was edited: go on',
    'billing payments refund --file refunds.csv --new-batch   # a new file under the same name',
    'billing payments refund --file refunds.csv --break-lock  # its lock is from a gone container',
  ],
  help:
    PRODUCTION_GUARD +
    JOURNAL_HELP +
    '\nWith --file: one result per row, in the order of the input (payment_id, amount,\n' +
    'status refunded|skipped|failed|in_doubt, refund_id, error); a summary on stderr; exit 9 when a row\n' +
    'failed. The journal records each row before and after its refund: running the same file\n' +
    'again after a crash, Ctrl-C or network failure skips what was refunded, checks what was\n' +
    'in flight, and finishes the rest. A 502, a timeout or a lost connection is followed by\n' +
    'reading the payments of the order before anything is sent again.\n',
  output: 'answer',
  moves: 'money',
});

export default defineCommand(refundVerb, refund);

async function refund(rt: Runtime, args: string[], flags: OptionsOf<typeof refundVerb>): Promise<void> {
  if (flags.file !== undefined) {
    if (args.length > 0) throw new UsageError('give either a payment id or --file, not both');
    const { bulkRefund } = await import('../../ops/refunds/bulk.js');
    return bulkRefund(rt, flags);
  }
  if (args.length > 1) {
    const { bulkRefund } = await import('../../ops/refunds/bulk.js');
    return bulkRefund(rt, flags, args);
  }
  if (args[0] === undefined) throw parse.needArgument('payment id', '--file FILE');
  const paymentId = parse.recordId('payment', args[0]);
  const amount = flags.amount === undefined ? undefined : parse.amount('--amount', flags.amount);
  if (flags.dryRun) {
    // A dry run refuses what the run would: a failed debit, more than is left (exit 7).
    planRefund(await readRefundState(await rt.client(), paymentId, { signal: rt.signal }), amount);
    await writePreviews(rt, [await preview(rt, 'refund', paymentId, amount)], true);
    if (amount === undefined)
      rt.info('A full refund is sent with the amount left, read just before sending.');
    return;
  }
  const { refundAction } = await import('../../ops/batch/on-payments.js');
  return moveOne(
    rt,
    refundAction(await rt.client()),
    paymentId,
    amount,
    flags,
    (p) => `Refunded ${money(p)} of payment ${paymentId}.`,
  );
}
