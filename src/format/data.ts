// What a command hands to the writer (./write.ts): its data, and views for people.

import type { Column, ResourceName } from './columns.js';

export type Records = AsyncIterable<unknown> | Iterable<unknown>;

export type Columns = ResourceName | readonly Column[];

export type Data =
  /** Records under a resource's columns (or a command's own); streamed where the format streams. */
  | { list: Records; columns: Columns; total?: ListTotal }
  /** One record. */
  | { one: unknown; columns: Columns }
  /** A value without columns of its own; `exact` when its numbers are ExactNumbers to print with their digits. */
  | { value: unknown; exact?: boolean }
  /** A document the service sent (`billing api`); `pages` when it is the records of every page. */
  | { answer: unknown; exact?: boolean }
  | { pages: Records };

/** A view for people: data in the shape a person reads, or a function that writes it. */
export type View = Data | (() => Promise<unknown> | unknown);

export interface Views {
  /** What the formats of rows (csv, tsv) and the screen write instead of the data. */
  rows?: View;
  /** What a person at a screen reads (table): a detail view, with notes on stderr. */
  screen?: View;
}

/**
 * A list's --total: what its records add up to, asked for once they have all passed, and
 * written where the format's `total` trait says (./formats.ts).
 */
export interface ListTotal {
  /** The list's name, the key of its records in a json document: payments, orders. */
  name: string;
  /** The summary record, once every record has passed (it may read more: monthly amounts). */
  summary: () => unknown | Promise<unknown>;
  /** The summary for a person, one line each: the footer, or the lines beside rows. */
  lines: (summary: unknown) => string[];
  /** Where the lines go beside the formats of rows (csv, tsv): stderr. */
  aside: (line: string) => void;
}
