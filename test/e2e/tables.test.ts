// The exit codes, the environment variables and the output formats are each one table in src
// (src/errors.ts EXIT_CODES, src/config/variables.ts ENVIRONMENT, src/format/formats.ts
// FORMATS). Help prints them and the scripting guide's tables (docs/guides/scripting.md) show
// them: each is checked here against the table, row by row, so a code, a variable or a format
// added to its table is in every one of them or a test fails. (The guide's table of formats is
// checked in every-format.test.ts.)
// README's table of commands is checked entry by entry against the commands' descriptions
// (src/commands/index.ts GROUPS and each group's verbs): a command added, renamed or
// re-described fails, naming it, until its row says so.

import { describe, expect, it } from 'vitest';
import { plain } from '../../src/cli/help-layout.js';
import { entriesOf } from '../../src/cli/kit/action-commands.js';
import { isRunnable } from '../../src/cli/kit/verb.js';
import { GROUPS } from '../../src/commands/index.js';
import { ENVIRONMENT } from '../../src/config/variables.js';
import { CUSTOMER_FIELDS, flagOf } from '../../src/domain/customers.js';
import { EXIT_CODES } from '../../src/errors.js';
import { FORMATS, OUTPUT_FORMATS } from '../../src/format/formats.js';
import { baseEnv, runCli } from '../helpers/cli.js';
import { repoFile, tableAfter } from '../helpers/markdown.js';

const README = repoFile('README.md');
const SCRIPTING = repoFile('docs/guides/scripting.md');
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

describe("the scripting guide's tables are the tables of src, row by row", () => {
  it('## Exit codes: one row per code of EXIT_CODES, in order, with its meaning', () => {
    expect(tableAfter(SCRIPTING, '## Exit codes')).toEqual(codes.map((e) => [String(e.code), e.meaning]));
  });

  it('## Environment variables: one row per variable of ENVIRONMENT, in order, with its meaning', () => {
    expect(tableAfter(SCRIPTING, '## Environment variables')).toEqual(
      variables.map(([name, v]) => [`\`${name}\``, v.meaning]),
    );
  });
});

describe("README's table of commands is the commands' descriptions, entry by entry", () => {
  /** Each row by the command its first cell names: `[\`billing orders\`](docs/commands.md#billing-orders)`. */
  const rows = new Map(
    tableAfter(README, '## Commands').map(([command = '', what = '', verbs = '']) => [
      /^\[`billing ([\w-]+)`\]/.exec(command)?.[1] ?? command,
      { command, what, verbs },
    ]),
  );
  const groups = Object.values(GROUPS);

  it('has a row for every group and top-level command, linking its section of docs/commands.md', () => {
    const doc = repoFile('docs/commands.md').split('\n');
    for (const { name } of groups) {
      expect(rows.has(name), `README's table of commands has no row for billing ${name}`).toBe(true);
      expect(rows.get(name)?.command, `billing ${name}`).toBe(
        `[\`billing ${name}\`](docs/commands.md#billing-${name})`,
      );
      expect(doc, `docs/commands.md has a section for billing ${name}`).toContain(`## billing ${name}`);
    }
  });

  it('has no row for a command that is not declared', () => {
    const declared = new Set<string>(groups.map((g) => g.name));
    for (const name of rows.keys())
      expect(
        declared.has(name),
        `README's table of commands has a row for "${name}", which is no command`,
      ).toBe(true);
    expect([...rows.keys()], 'in the order of billing --help').toEqual(groups.map((g) => g.name));
  });

  it("says each command's summary, and a group's commands in the order of its help", async () => {
    for (const group of groups) {
      const row = rows.get(group.name);
      if (row === undefined) continue; // named by the test above
      expect(row.what, `README's row of billing ${group.name}: its summary`).toBe(group.summary);
      const verbs =
        'verbs' in group
          ? (await entriesOf(group)).map((e) => `\`${isRunnable(e) ? e.verb.name : e.name}\``).join(', ')
          : '';
      expect(row.verbs, `README's row of billing ${group.name}: its commands`).toBe(verbs);
    }
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
