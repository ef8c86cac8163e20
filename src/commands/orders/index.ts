// The verbs of `billing orders`, in the order of its help, each with the lazy import of its code.
// Loaded only when the command line names the group (src/commands/index.ts).

import { command } from '../../cli/kit/verb.js';
import { cancelVerb } from './cancel.js';
import { createVerb } from './create.js';
import { getVerb } from './get.js';
import { listVerb } from './list.js';
import { pauseVerb } from './pause.js';
import { payVerb } from './pay.js';
import { paymentsVerb } from './payments.js';
import { resumeVerb } from './resume.js';
import { scheduleVerb } from './schedule.js';
import { subscribeVerb } from './subscribe.js';
import { timelineVerb } from './timeline.js';
import { watchVerb } from './watch.js';

const lifecycle = () => import('./lifecycle.run.js');
const payments = () => import('../payments/run.js');

export const VERBS = [
  command(listVerb, async () => (await import('./list.run.js')).list),
  command(getVerb, async () => (await import('./get.run.js')).get),
  command(timelineVerb, async () => (await import('./timeline.run.js')).timeline),
  command(createVerb, async () => (await import('./create.run.js')).create),
  command(subscribeVerb, async () => (await import('./subscribe.run.js')).subscribe),
  command(paymentsVerb, async () => (await payments()).orderPayments),
  command(payVerb, async () => (await payments()).pay),
  command(scheduleVerb, async () => (await lifecycle()).schedule),
  command(pauseVerb, async () => (await lifecycle()).pause),
  command(resumeVerb, async () => (await lifecycle()).resume),
  command(cancelVerb, async () => (await lifecycle()).cancel),
  command(watchVerb, async () => (await lifecycle()).watch),
];
