// The output formats: the one list that help, topics, completion, the runtime, the scripting guide's table
// of formats and the tests read. Each entry says what a command's output becomes in it; how a format writes is its
// strategy in ./strategies.ts (loaded only when something is written, never for --help).

export interface FormatTraits {
  /** What it writes, in one sentence: its row in `billing help formatting` and in the scripting guide's table of formats. */
  about: string;
  /**
   * What the format shows of a command's output: `data` the records themselves (what the
   * service sent, with the command's additions); `rows` the rows a command shows a person,
   * one line each; `screen` what a person at a terminal reads (a command may add detail,
   * footers and notes there).
   */
  shows: 'data' | 'rows' | 'screen';
  /** Records are written as they arrive (memory stays flat); false: the whole list is laid out at once. */
  streams: boolean;
  /** One record a line and nothing else (no header, no brackets): a stream of events can use it. */
  eachLine: boolean;
  /** Errors are also written as a JSON object on stderr. */
  jsonErrors: boolean;
  /**
   * Where a list's --total goes (docs/contract.md): `footer` lines after the table; `document`
   * one JSON document {"<list>": [...], "total": {...}}; `line` a last line {"total": {...}},
   * still one JSON object a line; `aside` the footer's lines on stderr, so the rows stay rows.
   */
  total: 'footer' | 'document' | 'line' | 'aside';
}

export const FORMATS = {
  table: {
    about: 'aligned columns for a person, with colour on a terminal; dates as YYYY-MM-DD HH:MM UTC',
    shows: 'screen',
    streams: false,
    eachLine: false,
    jsonErrors: false,
    total: 'footer',
  },
  json: {
    about: 'one JSON document: the record, or an array of records',
    shows: 'data',
    streams: true,
    eachLine: false,
    jsonErrors: true,
    total: 'document',
  },
  ndjson: {
    about: 'one JSON object a line; streams, memory stays flat over any number of records',
    shows: 'data',
    streams: true,
    eachLine: true,
    jsonErrors: false,
    total: 'line',
  },
  csv: {
    about:
      "RFC 4180: a header row; a field holding a comma, a quote or a line break is quoted, its quotes doubled; a cell a spreadsheet would run as a formula (=, +, -, @) gets a leading ' unless --csv-raw",
    shows: 'rows',
    streams: true,
    eachLine: false,
    jsonErrors: false,
    total: 'aside',
  },
  tsv: {
    about:
      'no header, one record a line, fields split by one tab; tabs and line breaks inside a value become spaces (so cut and awk work)',
    shows: 'rows',
    streams: true,
    eachLine: true,
    jsonErrors: false,
    total: 'aside',
  },
} as const satisfies Record<string, FormatTraits>;

export type OutputFormat = keyof typeof FORMATS;

export const OUTPUT_FORMATS = Object.keys(FORMATS) as readonly OutputFormat[];

export function isOutputFormat(value: string): value is OutputFormat {
  return Object.hasOwn(FORMATS, value);
}

export function traitsOf(format: OutputFormat): FormatTraits {
  return FORMATS[format];
}

/** Where and how results are written. */
export interface Output {
  format: OutputFormat;
  color: boolean;
  stdout: NodeJS.WritableStream;
  /** Whether stdout is a terminal (an `api` answer is indented there, compact in a pipe). */
  tty?: boolean;
  /** Terminal columns, for table. */
  width?: number;
  /** CSV cells as they are: no leading ' before =, +, -, @, tab or CR (--csv-raw). */
  csvRaw?: boolean;
  /** --query: a JMESPath expression applied to what json would print (see query.ts). */
  query?: string | undefined;
  /** --query-max-mb, in bytes: the bound of what the query makes (query.ts QUERY_LIMITS.bytes when unset). */
  queryMaxBytes?: number | undefined;
  /**
   * Each record handed to stdout as it comes, not gathered (sink.ts): a batch of money moves
   * counts a result as reported once stdout took it, so nothing may wait in between.
   */
  eachAtOnce?: boolean;
}

/** A table for a person at a terminal; tab-separated lines for cut and awk otherwise. */
export function defaultFormat(stdoutIsTTY: boolean): OutputFormat {
  return stdoutIsTTY ? 'table' : 'tsv';
}

/** Colour decision, first rule that applies wins. */
export function shouldColor(o: {
  noColorFlag: boolean;
  env: Record<string, string | undefined>;
  stream: { isTTY?: boolean };
}): boolean {
  if (o.noColorFlag) return false;
  const force = o.env.FORCE_COLOR;
  if (force !== undefined) return !(force === '0' || force.toLowerCase() === 'false');
  if (o.env.NO_COLOR) return false;
  if (o.env.TERM === 'dumb') return false;
  return o.stream.isTTY === true;
}
