// billing emulator clock: its description; its code is ./run.ts.

import { verb } from '../../cli/kit/verb.js';
import { PORT_FLAG } from './flags.js';

export const clockVerb = verb({
  name: 'clock',
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
