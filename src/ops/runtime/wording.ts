// The one wording of a missing or bad value (docs/contract.md), kept free of imports so that
// the error path of every command (src/cli/action.ts) can use it at no start-up cost.

import { UsageError } from '../../errors.js';

/** Examples and meanings of the flags that recur, for the messages. */
const KNOWN: Record<string, { what: string; example: string }> = {
  '--customer': { what: "the customer's id", example: '3' },
  '--product': { what: "a product's id", example: '5' },
  '--order': { what: "the order's id", example: '1042' },
  '--profile': { what: 'the merchant profile id', example: '7' },
  '--currency': { what: 'a three-letter currency code', example: 'EUR' },
  '--invoice-id': { what: 'your own unique id of the order', example: 'INV0001' },
  '--first-name': { what: "the customer's first name", example: 'Ada' },
  '--last-name': { what: "the customer's last name", example: 'Lovelace' },
  '--name': { what: "the product's name", example: '"Gold plan"' },
  '--price': { what: 'the price', example: '19.90' },
  '--start-date': { what: 'the first scheduled payment', example: '2027-01-31T09:00' },
  '--page': { what: 'the page to read', example: '2' },
  '--items': { what: 'records per page', example: '50' },
  '--limit': { what: 'how many at most', example: '20' },
  '--to': { what: 'where to send them', example: 'http://127.0.0.1:3000/webhooks' },
  '--header': { what: 'the X-Service-Signature value', example: '"t=1700000000,v1=…"' },
};

export function exampleOf(flag: string, fallback = ''): string {
  return KNOWN[flag]?.example ?? fallback;
}

/** The message of a flag that was not given: `missing --customer (the customer's id), e.g. --customer 3`. */
export function missing(flag: string, what = KNOWN[flag]?.what, example = KNOWN[flag]?.example): UsageError {
  const meaning = what ? ` (${what})` : '';
  const eg = example ? `, e.g. ${flag} ${example}` : '';
  return new UsageError(`missing ${flag}${meaning}${eg}`);
}

/** The message of a bad value: `--customer must be a positive whole number, e.g. --customer 3 (got "abc")`. */
export function bad(flag: string, rule: string, example: string, got: string): UsageError {
  const eg = flag.startsWith('-') ? `${flag} ${example}` : example;
  return new UsageError(`${flag} must be ${rule}, e.g. ${eg} (got "${got}")`);
}

/** A positional argument that was not given; run.ts adds the command's usage line as its hint. */
export class MissingArgumentError extends UsageError {}

/** A positional argument that is needed and was not given: `give a payment id, or --file FILE`. */
export function needArgument(what: string, alternative?: string): MissingArgumentError {
  const article = /^[aeiou]/i.test(what) ? 'an' : 'a';
  return new MissingArgumentError(`give ${article} ${what}${alternative ? `, or ${alternative}` : ''}`);
}
