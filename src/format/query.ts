// --query EXPR: a JMESPath expression applied to what `-o json` would print, then rendered in
// the chosen format. Loaded only when --query is given (@jmespath-community/jmespath, the
// typed and maintained implementation of the JMESPath specification).

import { compile, type JSONValue, TreeInterpreter, tokenize } from '@jmespath-community/jmespath';
import { TooBigError, writtenOutBytes, writtenOutValues } from '../domain/json-size.js';
import { UsageError } from '../errors.js';
import type { Data, Records } from './data.js';
import { type Output, traitsOf } from './formats.js';

type ASTNode = ReturnType<typeof compile>;

/** write.ts's writer of data without a query, handed in so that this module does not import it back. */
type WriteData = (out: Output, data: Data) => Promise<number>;

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

/**
 * The bounds of one search (the scripting guide, "Filter any output"): its work (each step of the
 * interpreter, and each element of a list it makes) and its result written out. An
 * expression such as `[@,@][][@,@][]…` doubles its list at each step: without a bound it
 * takes gigabytes and aborts the runtime. Bytes too (issue 34 §4): a string a function makes
 * (`join('', [@, @])` doubles it at each step) counts as it is made, and the result written
 * out counts before it is written; `bytes` is the default, --query-max-mb raises it.
 */
export const QUERY_LIMITS = { work: 5_000_000, values: 5_000_000, bytes: 32 * 1024 * 1024 } as const;

type Interpreter = typeof TreeInterpreter;
const Interpreter = TreeInterpreter.constructor as new () => Interpreter;

class QueryBoundError extends Error {
  constructor(readonly bound: 'work' | 'bytes') {
    super(bound);
  }
}

const MB = 1024 * 1024;

/**
 * The expression applied to a value; a function called wrongly, or a bound passed, is a usage
 * error too. `maxBytes`: the bound of the strings it makes and of its result written out.
 */
export function search(value: unknown, expression: string, maxBytes: number = QUERY_LIMITS.bytes): unknown {
  const ast = compileQuery(expression);
  applied = true;
  let result: unknown;
  try {
    result = boundedSearch(ast, (value ?? null) as JSONValue, maxBytes);
    writtenOutValues(result, QUERY_LIMITS.values);
    if (writtenOutBytes(result, maxBytes) > maxBytes) throw new QueryBoundError('bytes');
  } catch (cause) {
    if (cause instanceof QueryBoundError && cause.bound === 'bytes') {
      throw new UsageError(`--query stopped: what it makes passed ${maxBytes / MB} MB`, {
        hint: 'narrow the expression, or raise the bound with --query-max-mb MB',
      });
    }
    if (cause instanceof QueryBoundError || cause instanceof TooBigError) {
      const what =
        cause instanceof TooBigError
          ? `its result holds more than ${QUERY_LIMITS.values.toLocaleString('en')} values`
          : `it took more than ${QUERY_LIMITS.work.toLocaleString('en')} steps`;
      throw new UsageError(`--query stopped: ${what}`, {
        hint: 'narrow the expression (filter before you multiply lists)',
      });
    }
    throw new UsageError(`--query failed: ${String((cause as Error).message ?? cause)}`, { cause });
  }
  return result;
}

/** TreeInterpreter.search with its work counted: each visit, and each element of a list a visit returns. */
function boundedSearch(ast: ASTNode, value: JSONValue, maxBytes: number): unknown {
  let work = 0;
  // Bytes of the strings functions made (join, to_string…): counted as they grow, before the next doubling.
  let made = 0;
  const counted = (interpreter: Interpreter): Interpreter => {
    const visit = interpreter.visit.bind(interpreter);
    const withScope = interpreter.withScope.bind(interpreter);
    // The interpreter calls this.visit for every node: the instance's own property counts them
    // all; `let` makes a new interpreter for its body, counted the same way.
    interpreter.visit = (node, current) => {
      if (++work > QUERY_LIMITS.work) throw new QueryBoundError('work');
      const result = visit(node, current);
      if (node.type === 'Function' && typeof result === 'string') {
        made += result.length;
        if (made > maxBytes) throw new QueryBoundError('bytes');
      }
      if (Array.isArray(result)) {
        work += result.length;
        if (work > QUERY_LIMITS.work) throw new QueryBoundError('work');
      }
      return result;
    };
    interpreter.withScope = (scope) => counted(withScope(scope));
    return interpreter;
  };
  return counted(new Interpreter()).search(ast, value);
}

/**
 * Writes `data` with the expression applied to what -o json would print, the result in the
 * chosen format. A list in a format of data written one a line (ndjson) is queried one record
 * at a time, as a one-element list, so that `--all -o ndjson` stays flat in memory and the same
 * filter or projection (`[?…]`, `[].{…}`) works in both; each element of the result is a line.
 * Every other list is read whole and queried as one array.
 */
export async function writeQueried(data: Data, out: Output, write: WriteData): Promise<number> {
  const expression = out.query ?? '';
  const max = out.queryMaxBytes ?? QUERY_LIMITS.bytes;
  const search = (value: unknown, e: string) => searchBounded(value, e, max);
  const plain = { ...out, query: undefined };
  applied = true;
  const traits = traitsOf(out.format);
  const oneALine = traits.shows === 'data' && traits.eachLine;
  if ('one' in data) return write(plain, { value: search(data.one, expression) });
  if ('value' in data) return write(plain, { value: search(data.value, expression) });
  if ('answer' in data) return write(plain, { answer: search(data.answer, expression) });
  const records = 'list' in data ? data.list : data.pages;
  if (oneALine) {
    compileQuery(expression);
    return write(plain, { list: perRecord(records, expression, max), columns: [] });
  }
  const all: unknown[] = [];
  for await (const record of records) all.push(record);
  const result = search(all, expression);
  await write(plain, 'list' in data ? { value: result } : { answer: result });
  return all.length;
}

async function* perRecord(records: Records, expression: string, max: number): AsyncGenerator<unknown> {
  for await (const record of records) {
    const result = search([record], expression, max);
    if (Array.isArray(result)) {
      for (const item of result) if (item !== null) yield item;
    } else if (result !== null) {
      yield result;
    }
  }
}

const searchBounded = search;

/** One column per key (see ./strategies.ts). */
export { columnsFor } from './strategies.js';
