// billing schedule skip: its description and its code.

import { skipScheduledPayment } from '../../api/schedule.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { writeEntry } from './schedule-view.js';

export const skipVerb = verb({
  name: 'skip',
  place: 20,
  summary: 'skip a scheduled payment: it will not be charged (the order stays on its cycle)',
  args: [{ name: '<id>', help: 'scheduled payment id' }],
  examples: ['billing schedule skip 312'],
  output: 'record',
  moves: 'money',
});

export default defineCommand(skipVerb, skip);

export async function skip(rt: Runtime, [id]: string[]): Promise<void> {
  const entryId = parse.recordId('scheduled payment', id ?? '');
  const result = await skipScheduledPayment(await rt.client(), entryId, { signal: rt.signal });
  await writeEntry(rt, result, `Scheduled payment ${entryId} skipped: it will not be charged.`);
}
