// billing emulator clock: its description and its code.

import { defineCommand, verb } from '../../cli/kit/verb.js';
import { UsageError } from '../../errors.js';
import { safeLine } from '../../format/terminal.js';
import { adminCall, emulatorOrigin } from '../../ops/emulator-control/admin.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { PORT_FLAG } from './flags.js';
import { output } from './run.js';

export const clockVerb = verb({
  name: 'clock',
  place: 70,
  summary: "the emulator's time; advance it to run, in order, everything that falls due in between",
  args: [
    { name: '[action]', help: 'advance' },
    {
      name: '[duration]',
      help: 'how far: 45d, 12h, 30m (minutes), 2w, 3mo (calendar months), 1y, or combined: 1y2mo',
    },
  ],
  flags: [
    {
      flag: '--to <date>',
      help: 'advance to this day (2027-03-01: midnight UTC) or time (2027-03-01T09:00, "01/03/2027 09:00"; UTC unless a zone is given)',
    },
    PORT_FLAG,
  ],
  examples: [
    'billing emulator clock',
    'billing emulator clock advance 45d',
    'billing emulator clock advance 1y -o json | jq ".ran | length"',
    'billing emulator clock advance --to 2027-03-01',
    'billing emulator clock advance 0d        # run what is due now',
  ],
  help: `\nWhat falls due, in order: scheduled payments of active orders are charged to the stored card
(of paused or suspended ones: skipped, never charged later); a soft decline makes the order
failed and is retried 1, 3 and 7 days after the first decline (back to active when approved;
after the last, suspended if the order had collected a payment, else it stays failed); a hard
decline makes it rejected; the last instalment completes the order; scheduled restarts resume
paused orders. Customer emails go to the outbox (billing emulator outbox): pending reminder 3
days after an order became pending, renewal 7 days before each subscription payment, card
expiry 30 days before and when the card expires, pause, resume, soft and hard declines.
Declining charges: a stored card ending 0002 (soft) or 0069 (hard), a card past its expiry
month (soft), or POST /__emulator/declines {customer_id, decline: "soft"|"hard", times}.
The clock only moves forward; time passing by itself runs nothing.
`,
  output: 'answer',
  moves: 'none',
});

export default defineCommand(clockVerb, clock);

export async function clock(
  rt: Runtime,
  [action, duration]: string[],
  flags: { port?: string; to?: string },
): Promise<void> {
  if (action !== undefined && action !== 'advance') {
    throw new UsageError(`unknown clock action "${action}"`, {
      hint: 'billing emulator clock shows the time; billing emulator clock advance 45d moves it',
    });
  }
  if (duration !== undefined && flags.to !== undefined) {
    throw new UsageError('give a duration or --to, not both');
  }
  const moving = action === 'advance' || flags.to !== undefined;
  if (action === 'advance' && duration === undefined && flags.to === undefined) {
    throw new UsageError('advance needs a duration (like 45d) or --to DATE');
  }
  const origin = await emulatorOrigin(rt, flags);
  const to = flags.to === undefined ? undefined : parse.dayOrTime('--to', flags.to);
  const body = moving ? (to !== undefined ? { to } : { advance: duration }) : undefined;
  const answer = await clockRequest(origin, body);
  const { textColumn, write, writeList, formatTimestamp } = await output();
  const ranColumns = RAN_COLUMNS.map(([key, title]) => textColumn(key, title));
  // The emulator is a service too: its text is shown safe for a terminal.
  const shown = (iso: string) => safeLine(formatTimestamp(iso));
  const rows = async () => {
    if (!moving) return rt.io.stdout.write(`${safeLine(String(answer.now))}\n`);
    await writeList(answer.ran ?? [], ranColumns, rt.output);
  };
  const screen = async () => {
    if (!moving) return rt.io.stdout.write(`${shown(answer.now)}\n`);
    rt.io.stdout.write(`Clock: ${shown(answer.previous ?? '')} → ${shown(answer.now)}\n`);
    if ((answer.ran ?? []).length === 0) return rt.io.stdout.write('Nothing fell due.\n');
    rt.io.stdout.write('\n');
    await writeList(answer.ran ?? [], ranColumns, rt.output);
  };
  await write(rt.output, { one: answer, columns: [] }, { rows, screen });
  if (!moving) {
    const days = answer.offset_ms / 86_400_000;
    rt.info(`The emulator's clock is ${days.toFixed(days % 1 === 0 ? 0 : 2)} days ahead of the wall clock.`);
  } else {
    rt.info(
      `${answer.ran_count ?? 0} thing${answer.ran_count === 1 ? '' : 's'} ran${answer.ran_truncated ? ' (the list is cut short; see -o json)' : ''}.`,
    );
  }
}

interface ClockAnswer {
  now: string;
  previous?: string;
  offset_ms: number;
  ran?: Record<string, unknown>[];
  ran_count?: number;
  ran_truncated?: boolean;
}

const RAN_COLUMNS = [
  ['at', 'At'],
  ['order_id', 'Order'],
  ['scheduled_payment_id', 'Payment'],
  ['action', 'Action'],
  ['status', 'Order status'],
  ['detail', 'Detail'],
] as const;

/** GET (no body) or POST /__emulator/clock; a 400 is the caller's mistake (exit 2). */
function clockRequest(origin: string, body: Record<string, unknown> | undefined): Promise<ClockAnswer> {
  return adminCall<ClockAnswer>(origin, body === undefined ? 'GET' : 'POST', 'clock', {
    body,
    timeoutMs: 120_000,
    usage: { 400: undefined },
  });
}
