// billing payments capture: its description and its code.

import { PRODUCTION_GUARD } from '../../cli/kit/help-text.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import * as parse from '../../ops/runtime/args.js';
import { writePreviews } from '../../ops/runtime/preview.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { DRY_RUN, JOURNAL_HELP, journalFlags } from './journal.js';
import { money, moveOne, preview } from './run.js';

export const captureVerb = verb({
  name: 'capture',
  place: 30,
  summary: 'capture a successful pre-authorisation, in full or in part',
  args: [
    { name: '[ids...]', help: 'payment id of the pre-authorisation (several for a batch)', id: 'payment' },
  ],
  flags: [
    {
      flag: '--amount <amount>',
      help: 'capture only this much, like 12.50 (default: all that was authorised)',
    },
    DRY_RUN,
    ...journalFlags('record the capture in this journal: a retry of the same command captures nothing twice'),
  ],
  examples: [
    'billing payments capture 311',
    'billing payments capture 311 --amount 40.00',
    'billing payments capture 311 --journal capture-311.journal   # safe to retry',
    'billing payments capture 311 312 313',
    'billing payments capture --file preauths.csv --dry-run',
  ],
  help: PRODUCTION_GUARD + JOURNAL_HELP,
  output: 'answer',
  moves: 'money',
  batch: 'capture',
  afterBatch:
    'With several ids or --file each pre-authorisation is captured in full\n(--amount goes with one id).\n',
});

export default defineCommand(captureVerb, capture);

async function capture(rt: Runtime, args: string[], flags: OptionsOf<typeof captureVerb>): Promise<void> {
  if (
    await (await import('../../cli/kit/many.js')).batchOf(rt, 'capture', args, flags, {
      '--amount': flags.amount,
    })
  )
    return;
  const paymentId = parse.recordId('payment', args[0] ?? '');
  const amount = flags.amount === undefined ? undefined : parse.amount('--amount', flags.amount);
  if (flags.dryRun) {
    return writePreviews(rt, [await preview(rt, 'capture', paymentId, amount)], true);
  }
  const { captureAction } = await import('../../ops/batch/on-payments.js');
  return moveOne(
    rt,
    captureAction(await rt.client()),
    paymentId,
    amount,
    flags,
    (p) => `Captured ${money(p)} of pre-authorisation ${paymentId}.`,
  );
}
