// Every output format of src/format/formats.ts (OUTPUT_FORMATS), over a table of commands
// that stand for every kind of output (a list, a record, a record with a view of its own,
// a document the service sent, every page of one, a dry run, a timeline, the results of a
// batch of ids and of a refunds file), against the emulator. Each
// format has its check here: a format added to the constant without one is a compile error
// (CHECKS is a Record of every format) and a failure below. Help, completion and the scripting guide's
// table of formats (a row each, its text from FORMATS) are held to the same list.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMATS, OUTPUT_FORMATS, type OutputFormat } from '../../src/format/formats.js';
import { parseNdjson, runCli, tempDir } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';
import { repoFile, tableAfter } from '../helpers/markdown.js';

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
});
afterAll(async () => {
  await emu.close();
});

// biome-ignore lint/suspicious/noExplicitAny: records are read field by field
type Json = any;

/**
 * What a command prints: `list` records (json an array, one a line or row elsewhere), `one`
 * record, an `answer` the service sent (JSON in every format without a form of its own), or
 * `text` a person reads in the formats for people (a signature header, a link).
 */
type Shape = 'list' | 'one' | 'answer' | 'text';

interface Case {
  args: string[];
  shape: Shape;
  /** Its values move between two runs (a clock): only its keys are compared. */
  moving?: boolean;
  /** Run once before the case: what makes every later run of it print the same. */
  prepare?: () => Promise<void>;
}

/** Two refunds of the demo's payments; once run, every run after it prints the same rows, skipped. */
const refunds = join(tempDir(), 'refunds.csv');

const CASES: Case[] = [
  { args: ['orders', 'list', '--items', '5'], shape: 'list' },
  { args: ['orders', 'list', '--all', '--limit', '7'], shape: 'list' },
  { args: ['orders', 'get', '1'], shape: 'one' },
  { args: ['customers', 'list', '--items', '3'], shape: 'list' },
  { args: ['customers', 'get', '1'], shape: 'one' },
  { args: ['products', 'get', '1'], shape: 'one' },
  { args: ['orders', 'payments', '1'], shape: 'list' },
  { args: ['payments', 'refund', '1', '--amount', '1.00', '--dry-run'], shape: 'text' },
  { args: ['api', '/orders?items=2'], shape: 'answer' },
  { args: ['api', '/orders?items=2', '--paginate'], shape: 'answer' },
  { args: ['emulator', 'clock', '--port', '$PORT'], shape: 'text', moving: true },
  { args: ['emulator', 'status', '--port', '$PORT'], shape: 'text', moving: true },
  { args: ['emulator', 'outbox', '--port', '$PORT'], shape: 'list' },
  { args: ['emulator', 'deliveries', '--port', '$PORT'], shape: 'list' },
  {
    // The local environment's webhook secret signs (a secret is never a flag value).
    args: ['webhooks', 'sign', '--timestamp', '1700000000'],
    shape: 'text',
  },
  { args: ['orders', 'timeline', '197'], shape: 'list' },
  // The batch engine's results: each run sends the links again (a fresh state directory, a new journal).
  { args: ['links', 'email', '195', '193'], shape: 'list' },
  {
    args: ['payments', 'refund', '--file', refunds],
    shape: 'list',
    prepare: async () => {
      writeFileSync(refunds, 'payment_id,amount\n175,1.00\n164,1.00\n');
      const first = await runInProcess(['payments', 'refund', '--file', refunds], { env: emu.env() });
      expect(first.code, first.stderr).toBe(0);
    },
  },
];

/** The command's words, with the test emulator's port for `$PORT`. */
const argsOf = (c: Case) => c.args.map((a) => (a === '$PORT' ? new URL(emu.url).port : a));

/**
 * The command in a format: its exit code checked, what it printed. The first case runs the
 * built CLI in every format, as a script's pipe reads it; the others run the same main()
 * in-process (test/helpers/in-process.ts): what is checked here is each format's text.
 */
async function printed(c: Case, format: OutputFormat) {
  const run = c === CASES[0] ? runCli : runInProcess;
  const r = await run([...argsOf(c), '-o', format], { env: emu.env(), input: '{"a":1}' });
  expect(r.code, `billing ${c.args.join(' ')} -o ${format}: ${r.stderr}`).toBe(0);
  return r;
}

/** The same record as -o json printed; for output whose values move between runs, the same keys. */
function same(value: Json, ref: Json, c: Case): void {
  if (c.moving) expect(Object.keys(value).sort()).toEqual(Object.keys(ref).sort());
  else expect(value).toEqual(ref);
}

const lines = (out: string) => out.split('\n').filter((l) => l !== '');
const count = (shape: Shape, ref: Json) => (shape === 'list' ? ref.length : 1);

/** How each format's output must look; `ref` is the same command's -o json output. */
const CHECKS: Record<OutputFormat, (out: string, c: Case, ref: Json) => void> = {
  table(out, c, ref) {
    if (c.shape === 'answer') return void expect(JSON.parse(out)).toEqual(ref);
    expect(() => JSON.parse(out), 'a table is not JSON').toThrow();
    if (c.shape === 'list') {
      const [head, ...rows] = lines(out);
      expect(head).toMatch(/^[A-Z][A-Z ]+(\s{2,}[A-Z][A-Z ]+)+$/);
      expect(rows).toHaveLength(ref.length);
    } else if (c.shape === 'one') {
      // "Label  value" lines, the record's id among them.
      expect(out).toMatch(new RegExp(`^ID\\s{2,}${ref.id}$`, 'm'));
    } else {
      expect(out.trim()).not.toBe('');
    }
  },
  json(out, c, ref) {
    const value = JSON.parse(out);
    same(value, ref, c);
    if (c.shape === 'list') expect(Array.isArray(value)).toBe(true);
    if (c.shape === 'one') expect(Array.isArray(value)).toBe(false);
  },
  ndjson(out, c, ref) {
    const records = parseNdjson(out);
    if (c.shape === 'list' || (c.shape === 'answer' && Array.isArray(ref))) expect(records).toEqual(ref);
    else {
      expect(records).toHaveLength(1);
      same(records[0], ref, c);
    }
  },
  csv(out, c, ref) {
    if (c.shape === 'answer') return void expect(JSON.parse(out)).toEqual(ref);
    if (c.shape === 'text') return void expect(out.trim()).not.toBe('');
    const [head, ...rows] = parseCsv(out, { relax_column_count: false }) as string[][];
    expect(head?.every((h) => /^[a-z_]+$/.test(h))).toBe(true);
    expect(rows).toHaveLength(count(c.shape, ref));
    if (c.shape === 'one') expect(rows[0]?.[head?.indexOf('id') ?? -1]).toBe(String(ref.id));
  },
  tsv(out, c, ref) {
    if (c.shape === 'answer') return void expect(JSON.parse(out)).toEqual(ref);
    if (c.shape === 'text') return void expect(out.trim()).not.toBe('');
    const rows = lines(out).map((l) => l.split('\t'));
    expect(rows).toHaveLength(count(c.shape, ref));
    expect(new Set(rows.map((r) => r.length)).size).toBe(1);
    const first = c.shape === 'list' ? ref[0] : ref;
    if (first?.id !== undefined) expect(rows[0]).toContain(String(first.id));
  },
};

describe('every format of OUTPUT_FORMATS, every kind of output', () => {
  it('has a check for every format, and the formats are those the help lists', async () => {
    expect(Object.keys(CHECKS).sort()).toEqual([...OUTPUT_FORMATS].sort());
    const help = await runCli(['--help'], { env: emu.env() });
    const topic = await runCli(['help', 'formatting'], { env: emu.env() });
    const completion = await runCli(['__complete', 'orders', 'list', '-o', ''], { env: emu.env() });
    for (const format of OUTPUT_FORMATS) {
      expect(help.stdout, `--help names ${format}`).toContain(format);
      expect(topic.stdout, `help formatting describes ${format}`).toMatch(new RegExp(`^  ${format}\\s`, 'm'));
      expect(completion.stdout.split('\n'), `completion offers ${format}`).toContain(format);
    }
  });

  it("the scripting guide's table of formats has each format's own row, saying what FORMATS says of it", () => {
    expect(tableAfter(repoFile('docs/guides/scripting.md'), '## Output')).toEqual(
      OUTPUT_FORMATS.map((format) => [`\`${format}\``, FORMATS[format].about]),
    );
  });

  for (const c of CASES) {
    it(`billing ${c.args.join(' ')}`, async () => {
      await c.prepare?.();
      // -o json is what every other format is checked against (and is checked itself, below).
      const json = await printed(c, 'json');
      const ref = JSON.parse(json.stdout);
      for (const format of OUTPUT_FORMATS) {
        const r = format === 'json' ? json : await printed(c, format);
        if (c.shape === 'list' && ref.length === 0) {
          // An empty list: nothing in the formats of one record a line, a note for a person.
          expect(r.stdout + r.stderr, `-o ${format} says the list is empty`).toMatch(
            format === 'ndjson' || format === 'tsv' ? /^$/ : /./,
          );
          continue;
        }
        expect(r.stdout, `-o ${format} prints something`).not.toBe('');
        try {
          CHECKS[format](r.stdout, c, ref);
        } catch (err) {
          (err as Error).message =
            `-o ${format} of billing ${c.args.join(' ')}:\n${r.stdout}\n${(err as Error).message}`;
          throw err;
        }
      }
    });
  }
});
