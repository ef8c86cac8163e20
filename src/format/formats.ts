export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv' | 'tsv';

export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json', 'ndjson', 'csv', 'tsv'];

export function isOutputFormat(value: string): value is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(value);
}

/** Where and how results are written. */
export interface Output {
  format: OutputFormat;
  color: boolean;
  stdout: NodeJS.WritableStream;
  /** Terminal columns, for table. */
  width?: number;
  /** CSV cells as they are: no leading ' before =, +, -, @, tab or CR (--csv-raw). */
  csvRaw?: boolean;
  /** --query: a JMESPath expression applied to what json would print (see query.ts). */
  query?: string | undefined;
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
