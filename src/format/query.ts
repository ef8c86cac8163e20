// --query EXPR: a JMESPath expression applied to what `-o json` would print, then rendered in
// the chosen format. Loaded only when --query is given (@jmespath-community/jmespath, the
// typed and maintained implementation of the JMESPath specification).

import { compile, type JSONValue, TreeInterpreter, tokenize } from '@jmespath-community/jmespath';
import { UsageError } from '../errors.js';
import type { Column } from './columns.js';
import type { Output } from './formats.js';
import { humanize, isRecord, isScalar, text } from './text.js';

type ASTNode = ReturnType<typeof compile>;

/** write.ts's writers, handed in by write.ts so that this module does not import it back. */
export interface Writers {
  writeList(
    records: AsyncIterable<unknown> | Iterable<unknown>,
    columns: readonly Column[],
    out: Output,
  ): Promise<number>;
  writeOne(record: unknown, columns: readonly Column[], out: Output): Promise<void>;
}

const compiled = new Map<string, ASTNode>();
let applied = false;

/** Whether any output went through the query, so that a command that ignores it can say so. */
export function queryApplied(): boolean {
  return applied;
}

/** The expression's syntax tree; a usage error (exit 2) naming where it goes wrong. */
export function compileQuery(expression: string): ASTNode {
  let ast = compiled.get(expression);
  if (ast) return ast;
  if (expression.trim() === '') {
    throw new UsageError('--query is empty', { hint: `give a JMESPath expression, e.g. --query "[].id"` });
  }
  try {
    ast = compile(expression);
  } catch (cause) {
    const at = errorPosition(expression);
    const what = String((cause as Error).message ?? cause).replace(/^Syntax error[,:]?\s*/i, '');
    throw new UsageError(
      `--query is not a valid JMESPath expression: ${what} at character ${at + 1} of ${JSON.stringify(expression)}`,
      {
        hint: 'see https://jmespath.org for the syntax, e.g. --query "[?status.value==\'failed\'].id"',
        cause,
      },
    );
  }
  compiled.set(expression, ast);
  return ast;
}

/**
 * Where the expression goes wrong (0-based). The library's errors carry no position, so it is
 * found from the tokens: the first token after which the parser fails for a reason other than
 * reaching the end; for a character the lexer refuses, the first prefix it refuses.
 */
export function errorPosition(expression: string): number {
  let tokens: { start: number }[];
  try {
    tokens = tokenize(expression) as { start: number }[];
  } catch {
    for (let end = 1; end <= expression.length; end++) {
      try {
        tokenize(expression.slice(0, end));
      } catch {
        return end - 1;
      }
    }
    return expression.length;
  }
  for (let i = 0; i < tokens.length; i++) {
    const end = tokens[i + 1]?.start ?? expression.length;
    try {
      compile(expression.slice(0, end));
    } catch (err) {
      if (!/EOF/.test(String((err as Error).message))) return tokens[i]?.start ?? 0;
    }
  }
  return expression.length;
}

/** The expression applied to a value; a function called wrongly is a usage error too. */
export function search(value: unknown, expression: string): unknown {
  const ast = compileQuery(expression);
  applied = true;
  try {
    return TreeInterpreter.search(ast, (value ?? null) as JSONValue);
  } catch (cause) {
    throw new UsageError(`--query failed: ${String((cause as Error).message ?? cause)}`, { cause });
  }
}

/**
 * A list: as one JSON array for json, table, csv and tsv; one record at a time for ndjson, so
 * that `--all -o ndjson` stays flat in memory. Each record is queried as a one-element list,
 * so the same filter or projection (`[?…]`, `[].{…}`) works in both; each element of the
 * result is a line.
 */
export async function writeQueriedList(
  records: AsyncIterable<unknown> | Iterable<unknown>,
  out: Output,
  w: Writers,
): Promise<number> {
  const expression = out.query ?? '';
  const plain = { ...out, query: undefined };
  applied = true;
  if (out.format === 'ndjson') {
    compileQuery(expression);
    return w.writeList(perRecord(records, expression), [], plain);
  }
  const all: unknown[] = [];
  for await (const record of records) all.push(record);
  await writeValue(search(all, expression), plain, w);
  return all.length;
}

export async function writeQueriedOne(record: unknown, out: Output, w: Writers): Promise<void> {
  await writeValue(search(record, out.query ?? ''), { ...out, query: undefined }, w);
}

async function* perRecord(
  records: AsyncIterable<unknown> | Iterable<unknown>,
  expression: string,
): AsyncGenerator<unknown> {
  for await (const record of records) {
    const result = search([record], expression);
    if (Array.isArray(result)) {
      for (const item of result) if (item !== null) yield item;
    } else if (result !== null) {
      yield result;
    }
  }
}

/** Any JSON value in the chosen format; objects get columns named after their keys. */
export async function writeValue(value: unknown, out: Output, w: Writers): Promise<void> {
  if (out.format === 'json' || out.format === 'ndjson') {
    if (Array.isArray(value) && out.format === 'ndjson') {
      await w.writeList(value, [], out);
      return;
    }
    await w.writeOne(value, [], out);
    return;
  }
  if (Array.isArray(value)) {
    const rows = value.every(isRecord) ? value : value.map((v) => ({ value: v }));
    await w.writeList(rows, columnsFor(rows), out);
    return;
  }
  if (isRecord(value)) {
    await w.writeOne(value, columnsFor([value]), out);
    return;
  }
  if (value === null || value === undefined) return;
  await w.writeList([{ value }], columnsFor([{ value }]), out);
}

/** One column per key, in the order keys first appear; nested values as compact JSON. */
export function columnsFor(rows: readonly unknown[]): Column[] {
  const keys = new Set<string>();
  for (const row of rows) if (isRecord(row)) for (const key of Object.keys(row)) keys.add(key);
  return [...keys].map((key) => ({
    key,
    header: humanize(key),
    value: (row: unknown) => cell(isRecord(row) ? row[key] : undefined),
  }));
}

function cell(value: unknown): string {
  if (isScalar(value) || (Array.isArray(value) && value.every(isScalar))) return text(value);
  return JSON.stringify(value);
}
