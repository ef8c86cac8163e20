// The verbs of `billing orders`, in the order of its help: a command in a file of its own, loaded
// when it runs, or a description paired with the lazy import of the code it shares with others.

import { command, type Entry } from '../../cli/kit/verb.js';
import { cancelVerb } from './cancel.js';
import { pauseVerb } from './pause.js';
import { payVerb } from './pay.js';
import { paymentsVerb } from './payments.js';
import { resumeVerb } from './resume.js';
import { scheduleVerb } from './schedule.js';
import { watchVerb } from './watch.js';

export const VERBS: readonly Entry[] = [
  () => import('./list.js'),
  () => import('./get.js'),
  () => import('./timeline.js'),
  () => import('./create.js'),
  () => import('./subscribe.js'),
  command(paymentsVerb, async () => (await import('../payments/run.js')).orderPayments),
  command(payVerb, async () => (await import('../payments/run.js')).pay),
  command(scheduleVerb, async () => (await import('./lifecycle.run.js')).schedule),
  command(pauseVerb, async () => (await import('./lifecycle.run.js')).pause),
  command(resumeVerb, async () => (await import('./lifecycle.run.js')).resume),
  command(cancelVerb, async () => (await import('./lifecycle.run.js')).cancel),
  command(watchVerb, async () => (await import('./lifecycle.run.js')).watch),
];
