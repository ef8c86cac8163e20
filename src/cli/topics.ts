// The text of `billing help <topic>`. docs/contract.md says the same at length; a change to
// one is a change to the other.

import { FORMATS, OUTPUT_FORMATS } from '../format/formats.js';
import type { Topic } from './topic-names.js';

const TEXT: Record<Topic, string> = {
  environment: `Environment variables (a flag wins over a variable, a variable over the selected
environment in the config file, that over the built-in default):

  BILLING_API_TOKEN     the token; overrides the stored one. There is no flag for it.
  BILLING_ENV           environment (--env): sandbox, production, local or one you named
  BILLING_PROFILE_ID    merchant profile id (--profile)
  BILLING_BASE_URL      API version 2 base, ending in /api/v2 (--base-url)
  BILLING_BASE_URL_V1   API version 1 base, ending in /api/v1 (--base-url-v1); subscriptions use it
  BILLING_GATEWAY_URL   the card gateway's script host (--gateway-url)
  BILLING_WEBHOOK_SECRET  webhook signing secret
  BILLING_CONFIG_DIR    where the config file lives (billing config path shows it)
  BILLING_STATE_DIR     where the index of batches run lives (default $XDG_STATE_HOME/billing)
  BILLING_TIMEOUT       seconds before a request times out (default 30)
  BILLING_MAX_RESPONSE_MB  the largest answer read, in MB (default 64); a larger one is exit 8
  BILLING_CODE_CACHE    0 turns off the compiled-code cache in ~/.cache/billing/v8
  NO_COLOR, FORCE_COLOR colour (--no-color)
  CI                    never prompt (like --no-input)

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

  0    success
  1    unexpected failure (a bug; --debug shows the stack)
  2    usage or invalid input (caught locally, or a 400), or a refused confirmation
  3    not authenticated: no token, or 401
  4    forbidden: 403
  5    not found: 404
  6    conflict: 409
  7    rejected data: 422 (each problem is listed)
  8    the service or its gateway failed or could not be reached (also 429 and timeouts)
  9    a batch finished with some items failed
  10   a run of money moves stopped because it could not record one: some rows are in doubt
       (the summary names them; a re-run checks them against the order's payments);
       also a batch with a row whose answer did not confirm the move (journaled in doubt)
  11   the money moved, but its result could not be written (stdout full or closed);
       stderr names what was done: do not retry blindly
  12   this machine failed (a full disk, a closed output, a path that is a file); nothing moved
  13   another run holds the journal (its lock); nothing was sent
  130  interrupted (Ctrl-C), at a prompt, a spinner, a list or a batch

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

Errors: one line "error: <message>" on stderr, with a "hint:" line when there is something
to do; with -o json also {"error":{"status":...,"kind":...,"message":...,"details":...}}.

A list filter (orders list --status, --email, ...) and --query read every page (8 at a
time) and say on stderr how many pages they read; --query applies after the last page.
billing help fields orders lists the fields an expression can name (status.value, ...).
See also: billing help formatting, billing help exit-codes.
`,
  formatting: `Formats:

${OUTPUT_FORMATS.map((name) => `  ${name.padEnd(7)} ${FORMATS[name].about}`).join('\n')}

In csv and tsv money is two columns, amount (a decimal like 497.30) and currency (EUR).
Service text never reaches the terminal as control sequences: they are shown escaped.
`,
  dates: `Dates:

Every date flag (orders list and payments list --since/--until, orders subscribe
--start-date, orders resume --restart-date, schedule reschedule's DATE, emulator clock
--to) accepts:

  2027-01-31                a day (midnight UTC; a reschedule keeps the payment's time of day)
  2027-01-31T09:00          a time, UTC when no zone is given
  2027-01-31T09:00+02:00    a time with its zone (Z for UTC)
  "31/01/2027 09:00"        the service's own day-first form, UTC

and what people say, in UTC, as of now:

  today, yesterday          that day (--until today keeps all of today)
  monday … sunday           the latest one on or before today: monday is this week's
                            (weeks start on Monday); mon, tue … too
  this-week, this-month     this week's Monday, the 1st of this month
  last-month                the 1st of last month
  7d, 2w, 12h               that long before now, to the minute

and sends each route the form it takes. Dates are shown to a person as YYYY-MM-DD HH:MM UTC;
-o json prints the service's values untouched.

With --status, orders list --since/--until look at when the order got that status
(status_updated_at); --by-created-date looks at when it was created instead.
`,
};

export function topic(name: Topic): string {
  return TEXT[name];
}
