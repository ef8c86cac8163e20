// billing customers create: its description and its code.

import { createCustomer } from '../../api/customers.js';
import { createRecord } from '../../cli/kit/create-record.js';
import { flagOrAsk } from '../../cli/kit/prompt.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { CUSTOMER_FIELDS, CUSTOMER_FLAGS, camel } from '../../domain/customers.js';
import { parseDate } from '../../domain/dates.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export const createVerb = verb({
  name: 'create',
  place: 30,
  summary: 'create a customer; asks on a terminal for a missing first or last name',
  flags: [
    ...CUSTOMER_FLAGS,
    { flag: '--file <path>', help: 'a JSON body with its root key "customer" ("-" for stdin)' },
  ],
  examples: [
    'billing customers create --first-name Ada --last-name Lovelace --email ada@example.com --country GB',
  ],
  output: 'record',
  moves: 'data',
});

export default defineCommand(createVerb, create);

export async function create(
  rt: Runtime,
  _args: string[],
  flags: OptionsOf<typeof createVerb>,
): Promise<void> {
  await createRecord(
    rt,
    'customer',
    flags.file,
    async () => {
      const input: Record<string, unknown> = {};
      for (const { field } of CUSTOMER_FIELDS) {
        const value = flags[camel(field)];
        if (value !== undefined) input[field] = value;
      }
      input.first_name = await flagOrAsk(rt, flags.firstName, {
        flag: '--first-name',
        message: 'First name',
        parse: (v) => parse.text('--first-name', v),
      });
      input.last_name = await flagOrAsk(rt, flags.lastName, {
        flag: '--last-name',
        message: 'Last name',
        parse: (v) => parse.text('--last-name', v),
      });
      if (typeof input.date_of_birth === 'string') input.date_of_birth = dateOfBirth(input.date_of_birth);
      if (typeof input.country === 'string') {
        if (!/^[A-Za-z]{2}$/.test(input.country)) {
          throw parse.bad('--country', 'a two-letter country code', 'DE', input.country);
        }
        input.country = input.country.toUpperCase();
      }
      return input;
    },
    async (client, input) => (await createCustomer(client, input)).customer,
  );
}

/** A day of birth: YYYY-MM-DD (the field the service takes), from any accepted date form. */
function dateOfBirth(value: string): string {
  const parsed = parseDate(value);
  if (!parsed || parsed.hasTime) throw parse.bad('--date-of-birth', 'a day', '1990-12-10', value);
  return parsed.date.toISOString().slice(0, 10);
}
