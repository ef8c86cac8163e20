// The exit codes, the environment variables and the output formats are each one table in src
// (src/errors.ts EXIT_CODES, src/config/variables.ts ENVIRONMENT, src/format/formats.ts
// FORMATS). Help prints them and README's tables show them: each is checked here against the
// table, row by row, so a code, a variable or a format added to its table is in every one of
// them or a test fails. (README's table of formats is checked in every-format.test.ts.)

import { describe, expect, it } from 'vitest';
import { plain } from '../../src/cli/help-layout.js';
import { ENVIRONMENT } from '../../src/config/variables.js';
import { CUSTOMER_FIELDS, flagOf } from '../../src/domain/customers.js';
import { EXIT_CODES } from '../../src/errors.js';
import { FORMATS, OUTPUT_FORMATS } from '../../src/format/formats.js';
import { baseEnv, runCli } from '../helpers/cli.js';
import { repoFile, tableAfter } from '../helpers/markdown.js';

const README = repoFile('README.md');
const codes = Object.values(EXIT_CODES);
const variables = Object.entries(ENVIRONMENT);

/** Text with every run of white space one space: what a paragraph says, however it is wrapped. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

/**
 * The entries of a help topic's two columns: each term at column 2, its text at the column two
 * past the longest term, its continued lines under the text. Fails on a line out of place.
 */
function columns(out: string, terms: readonly string[]): Map<string, string> {
  const at = 2 + Math.max(...terms.map((t) => t.length)) + 2;
  const entries = new Map<string, string>();
  let current: string | undefined;
  for (const line of out.split('\n')) {
    const term = terms.find((t) => line.startsWith(`  ${t} `));
    if (term !== undefined) {
      expect(line.slice(0, at), `"${term}" then spaces to column ${at}: ${line}`).toBe(
        `  ${term}`.padEnd(at),
      );
      expect(line[at], `the text of "${term}" starts at column ${at}: ${line}`).not.toBe(' ');
      current = term;
      entries.set(term, line.slice(at));
      expect(line.length, line).toBeLessThanOrEqual(80);
    } else if (current !== undefined && line.startsWith(' '.repeat(at)) && line[at] !== ' ') {
      entries.set(current, `${entries.get(current)} ${line.slice(at)}`);
      expect(line.length, line).toBeLessThanOrEqual(80);
    } else {
      current = undefined;
    }
  }
  return entries;
}

describe("README's tables are the tables of src, row by row", () => {
  it('### Exit codes: one row per code of EXIT_CODES, in order, with its meaning', () => {
    expect(tableAfter(README, '### Exit codes')).toEqual(codes.map((e) => [String(e.code), e.meaning]));
  });

  it('### Environment variables: one row per variable of ENVIRONMENT, in order, with its meaning', () => {
    expect(tableAfter(README, '### Environment variables')).toEqual(
      variables.map(([name, v]) => [`\`${name}\``, v.meaning]),
    );
  });
});

describe('help prints the tables of src', () => {
  it('billing help exit-codes: every code with its meaning, in two aligned columns', async () => {
    const r = await runCli(['help', 'exit-codes'], { env: baseEnv() });
    expect(r.code, r.stderr).toBe(0);
    const shown = columns(
      r.stdout,
      codes.map((e) => String(e.code)),
    );
    expect(Object.fromEntries(shown)).toEqual(
      Object.fromEntries(codes.map((e) => [String(e.code), plain(e.meaning)])),
    );
  });

  it('billing help environment: every variable with its meaning, in two aligned columns', async () => {
    const r = await runCli(['help', 'environment'], { env: baseEnv() });
    expect(r.code, r.stderr).toBe(0);
    const shown = columns(
      r.stdout,
      variables.map(([name]) => name),
    );
    expect(Object.fromEntries(shown)).toEqual(
      Object.fromEntries(variables.map(([name, v]) => [name, plain(v.meaning)])),
    );
  });

  it('billing help formatting: every format with what it writes, its text at the column after the longest name', async () => {
    const r = await runCli(['help', 'formatting'], { env: baseEnv() });
    expect(r.code, r.stderr).toBe(0);
    const shown = columns(r.stdout, OUTPUT_FORMATS);
    expect(Object.fromEntries(shown)).toEqual(
      Object.fromEntries(OUTPUT_FORMATS.map((f) => [f, FORMATS[f].about])),
    );
  });

  it('billing --help names every variable, and every exit code in its short words', async () => {
    const r = await runCli(['--help'], { env: baseEnv() });
    expect(r.code, r.stderr).toBe(0);
    const text = flat(r.stdout);
    for (const [name] of variables) expect(text).toMatch(new RegExp(`[ :]${name}[,.]`));
    for (const e of codes) expect(text, `exit ${e.code}`).toContain(` ${e.code} ${e.short}`);
    for (const line of r.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('customers create takes a flag per field of CUSTOMER_FIELDS; help fields customers names each field', async () => {
    const create = await runCli(['customers', 'create', '--help'], { env: baseEnv() });
    const fields = await runCli(['help', 'fields', 'customers'], { env: baseEnv() });
    for (const { field } of CUSTOMER_FIELDS) {
      expect(create.stdout, field).toMatch(new RegExp(`^  ${flagOf(field)} <`, 'm'));
      expect(fields.stdout, field).toMatch(new RegExp(`\\b${field}\\b`));
    }
  });
});
