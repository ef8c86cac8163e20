// JSON that the CLI reads from the user (a refund file, an order file, a `billing api` body)
// keeps each number as the text it was written in: `1.999999999999999999`,
// `12345678901234567.89` and `9007199254740993` never pass through a double. lossless-json
// parses numbers into LosslessNumber (its source text) and writes them back with exactly
// those digits; everything else parses and prints as JSON.parse and JSON.stringify would.

import { isLosslessNumber, LosslessNumber, parse, stringify } from 'lossless-json';

/** A JSON number as written: `.value` is its source text. */
export type ExactNumber = LosslessNumber;

export class JsonTextError extends SyntaxError {
  override name = 'JsonTextError';
  /** Set when the text is JSON but names one key twice with two values: which one is meant is not clear. */
  readonly duplicateKey: string | undefined;
  constructor(message: string, duplicateKey?: string) {
    super(message);
    this.duplicateKey = duplicateKey;
  }
}

/** JSON.parse, with every number kept as its source text (an ExactNumber). Throws JsonTextError. */
export function parseExactJson(text: string): unknown {
  try {
    return parse(text);
  } catch (err) {
    // The parser descends recursively: a hostile 100,000-deep text overflows the stack.
    if (err instanceof RangeError) throw new JsonTextError('it nests too deep to read');
    const message = (err as Error).message;
    const duplicate = /^Duplicate key '(.*)' encountered/s.exec(message);
    throw new JsonTextError(message, duplicate?.[1]);
  }
}

/** JSON.stringify, writing each ExactNumber with exactly its source digits. */
export function stringifyExactJson(value: unknown, space?: number): string {
  return stringify(value, undefined, space) ?? 'null';
}

export function isExactNumber(value: unknown): value is ExactNumber {
  return isLosslessNumber(value);
}

/** A number from its digits as given (a `-F key=12.50` field); throws on text that is not a JSON number. */
export function exactNumber(text: string): ExactNumber {
  return new LosslessNumber(text);
}

/** The text of a number, read from its source digits when it came through parseExactJson. */
export function numberText(value: unknown): string | undefined {
  if (isExactNumber(value)) return value.value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}
