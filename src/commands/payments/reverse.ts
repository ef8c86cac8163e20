// billing payments reverse: its description and its code.

import { PRODUCTION_GUARD } from '../../cli/kit/help-text.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import * as parse from '../../ops/runtime/args.js';
import { writePreviews } from '../../ops/runtime/preview.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { DRY_RUN, JOURNAL_HELP, journalFlags } from './journal.js';
import { money, moveOne, preview } from './run.js';

export const reverseVerb = verb({
  name: 'reverse',
  place: 40,
  summary: 'release the funds of a pre-authorisation that was not captured',
  args: [
    { name: '[ids...]', help: 'payment id of the pre-authorisation (several for a batch)', id: 'payment' },
  ],
  flags: [
    DRY_RUN,
    ...journalFlags(
      'record the reversal in this journal: a retry of the same command reverses nothing twice',
    ),
  ],
  examples: [
    'billing payments reverse 311',
    'billing payments reverse 311 --journal reverse-311.journal',
    'billing payments reverse 311 312',
    'billing payments reverse --file preauths.csv --dry-run',
  ],
  help: PRODUCTION_GUARD + JOURNAL_HELP,
  output: 'answer',
  moves: 'money',
  batch: 'reverse',
});

export default defineCommand(reverseVerb, reverse);

async function reverse(rt: Runtime, args: string[], flags: OptionsOf<typeof reverseVerb>): Promise<void> {
  if (await (await import('../../cli/kit/many.js')).batchOf(rt, 'reverse', args, flags)) return;
  const paymentId = parse.recordId('payment', args[0] ?? '');
  if (flags.dryRun) {
    return writePreviews(rt, [await preview(rt, 'reverse', paymentId, undefined)], true);
  }
  const { reverseAction } = await import('../../ops/batch/on-payments.js');
  return moveOne(
    rt,
    reverseAction(await rt.client()),
    paymentId,
    undefined,
    flags,
    (p) => `Released ${money(p)} of pre-authorisation ${paymentId}.`,
  );
}
