// The text of `billing help <topic>`. docs/contract.md says the same at length; a change to
// one is a change to the other. The tables (variables, exit codes, formats) are printed from
// the one table of each: src/config/variables.ts, src/errors.ts, src/format/formats.ts.

import { ENVIRONMENT } from '../config/variables.js';
import { EXIT_CODES } from '../errors.js';
import { FORMATS, OUTPUT_FORMATS } from '../format/formats.js';
import { plain, termList } from './help-layout.js';
import type { Topic } from './topic-names.js';

const variables = termList(Object.entries(ENVIRONMENT).map(([name, v]) => [name, plain(v.meaning)]));
const exitCodes = termList(Object.values(EXIT_CODES).map((e) => [String(e.code), plain(e.meaning)]));
const formats = termList(OUTPUT_FORMATS.map((name) => [name, FORMATS[name].about]));

const TEXT: Record<Topic, string> = {
  environment: `Environment variables (a flag wins over a variable, a variable over the selected
environment in the config file, that over the built-in default):

${variables}

The environment "local" is the emulator (billing emulator start): its address, profile 1
and its development token sk_local_dev_emulator are pre-set.

A variable or flag that names something (environment, profile, address, file) and is set
but empty is exit 2. Built-in names are matched without regard to case (PRODUCTION is
production). An environment whose address is not this machine is guarded like production
(confirmation, --yes in a script) unless saved as a sandbox: billing login --kind sandbox.
billing config set base_url URL moves base_url_v1 and gateway_url along when they shared
its origin; billing status checks all three addresses. For an emulator on another port:
billing login --env NAME --emulator http://127.0.0.1:PORT, or emulator start --env NAME.
`,
  'exit-codes': `Exit codes:

${exitCodes}

1 is only ever a bug. A full or closed stdout is 12 with one error line (11 once money
moved, naming the payment, the refund or capture id and the amount); a reader that goes
away (| head) is not a failure; a failure to write stderr keeps the code the command had.
A link from the service that is not https (or http to this machine) is 8, naming the field.

Commands that run until stopped end 0 after their summary when Ctrl-C stops them:
billing webhooks listen, billing checkout open and a foreground billing emulator start.
`,
  output: `Output contract:

  Results go to stdout; everything for a person (hints, progress, confirmations) to stderr.
  -o ${OUTPUT_FORMATS.join('|')}, or --json. On a terminal the default is table, in a pipe tsv.
  Conflicting output flags (--json -o csv) are a usage error (exit 2).

  A command about one record (get, create, update, pause, resume, cancel, capture, refund of
  one payment, ...) prints that record bare with -o json, in the same shape as that
  resource's get. What a create answer adds (checkout, payment link, redirect URL) goes under
  named keys of that object ("checkout", "payment_link", ...).
  A list prints a JSON array with -o json, one record a line with -o ndjson.
  Machine output has typed fields: numbers are numbers, booleans booleans.
  -o json prints the service's values untouched (dates too).
  -o csv guards spreadsheets: a cell that starts with =, +, -, @, a tab or a line break
  (a formula to a spreadsheet; a phone number +44 20 ...) is written with a leading ';
  --csv-raw writes every cell as it is (for a program, not a spreadsheet).
  --total (payments list, orders list) ends a list with its count and sums: a footer on a
  terminal, a "total" record in json and ndjson, lines on stderr beside csv and tsv.

Errors: one line "error: <message>" on stderr, with a "hint:" line when there is something
to do; with -o json also {"error":{"status":...,"kind":...,"message":...,"details":...}}.

A list filter (orders list --status, --email, ...) and --query read every page (8 at a
time) and say on stderr how many pages they read; --query applies after the last page.
billing help fields orders lists the fields an expression can name (status.value, ...).
See also: billing help formatting, billing help exit-codes.
`,
  formatting: `Formats:

${formats}

In csv and tsv money is two columns, amount (a decimal like 497.30) and currency (EUR).
Service text never reaches the terminal as control sequences: they are shown escaped.
`,
  dates: `Dates:

Every date flag (orders list and payments list --since/--until/--during, orders subscribe
--start-date, orders resume --restart-date, schedule reschedule's DATE, emulator clock
--to) accepts:

  2027-01-31                a day (midnight UTC; a reschedule keeps the payment's time of day)
  2027-01-31T09:00          a time, UTC when no zone is given
  2027-01-31T09:00+02:00    a time with its zone (Z for UTC)
  "31/01/2027 09:00"        the service's own day-first form, UTC

and what people say, in UTC, as of now:

  today, yesterday          that day
  monday … sunday           the latest one on or before today: monday is this week's
                            (weeks start on Monday); mon, tue … too
  this-week, last-week      the week, Monday to Sunday
  this-month, last-month    the month
  october, oct              the latest October that has begun (any month's name)
  2026-10                   that month
  this-year, last-year      the year
  7d, 2w, 12h               that long before now, to the minute

A day, a week, a month or a year is a period: --since takes its start, --until its end
(--until last-month keeps all of last month, --until 2026-11-30 all of the 30th), and
--during PERIOD both (orders list and payments list: --during october is all of October).
A time (2027-01-31T09:00, 7d) is an instant: --until keeps up to that instant.

and sends each route the form it takes. Dates are shown to a person as YYYY-MM-DD HH:MM UTC;
-o json prints the service's values untouched.

With --status, orders list --since/--until look at when the order got that status
(status_updated_at); --by-created-date looks at when it was created instead.
`,
};

export function topic(name: Topic): string {
  return TEXT[name];
}
