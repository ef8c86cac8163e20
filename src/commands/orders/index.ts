// The commands of `billing orders`, in the order of its help: one file each, loaded when it runs,
// but pause, resume and cancel, whose descriptions the MCP write tools mirror (code in
// ./lifecycle.run.ts), and payments and pay, whose code is billing payments' (../payments/run.ts).

import { command, type Entry } from '../../cli/kit/verb.js';
import { cancelVerb } from './cancel.js';
import { pauseVerb } from './pause.js';
import { payVerb } from './pay.js';
import { paymentsVerb } from './payments.js';
import { resumeVerb } from './resume.js';

export const VERBS: readonly Entry[] = [
  () => import('./list.js'),
  () => import('./get.js'),
  () => import('./timeline.js'),
  () => import('./create.js'),
  () => import('./subscribe.js'),
  command(paymentsVerb, async () => (await import('../payments/run.js')).orderPayments),
  command(payVerb, async () => (await import('../payments/run.js')).pay),
  () => import('./schedule.js'),
  command(pauseVerb, async () => (await import('./lifecycle.run.js')).pause),
  command(resumeVerb, async () => (await import('./lifecycle.run.js')).resume),
  command(cancelVerb, async () => (await import('./lifecycle.run.js')).cancel),
  () => import('./watch.js'),
];
