// Screens for people (issue 18 §4), on a real pseudo-terminal of 80 columns: help shows a
// command's own options and subcommands before the inherited ones, examples wrap between
// words; tables keep the columns a person looks things up by and give up the others first;
// `links email` prints the link whole on a line of its own. And `get` in a pipe stays one
// tab-separated row (docs/contract.md says why).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';
import { runOnPty } from '../helpers/pty.js';

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
});
afterAll(async () => {
  await emu.close();
});

/** What a person sees on a terminal of 80 columns, line by line. */
async function screen(args: string[]): Promise<string[]> {
  const run = runOnPty(args, { env: emu.env({ NO_COLOR: '1' }), cols: 80, rows: 50 });
  const result = await run.exited;
  expect(result.code, result.text).toBe(0);
  return result.text.replace(/\r/g, '').split('\n');
}

/**
 * A help screen, shown once a file: help does not depend on the emulator's records, so the tests
 * that read the same command's help (payments refund's four times, --help, orders list's and
 * webhooks sign's twice) read one run of it on the terminal.
 */
const helpScreens = new Map<string, Promise<string[]>>();
function helpScreen(args: string[]): Promise<string[]> {
  const key = args.join(' ');
  let shown = helpScreens.get(key);
  if (shown === undefined) {
    shown = screen(args);
    helpScreens.set(key, shown);
  }
  return shown;
}

/**
 * The records a screen is checked against, read in-process (test/helpers/in-process.ts): they
 * are the reference, not what is tested; `-o json` of the built CLI is every-format's.
 */
// biome-ignore lint/suspicious/noExplicitAny: records are read field by field
async function json(args: string[]): Promise<any> {
  const r = await runInProcess([...args, '-o', 'json'], { env: emu.env() });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

const heading = (lines: string[], title: string) => lines.findIndex((l) => l.startsWith(title));

describe('help at 80 columns', () => {
  it("a group's help: its own options and commands first, the inherited options after them in a few lines", async () => {
    const lines = await helpScreen(['orders', '--help']);
    const options = heading(lines, 'Options:');
    const commands = heading(lines, 'Commands:');
    const inherited = heading(lines, 'Inherited options');
    expect(options).toBeGreaterThan(0);
    expect(commands).toBeGreaterThan(options);
    expect(inherited).toBeGreaterThan(commands);
    const block = lines.slice(inherited + 1).filter((l) => l.startsWith('  '));
    expect(block.length).toBeLessThanOrEqual(4);
    for (const flag of ['--env <name>', '-o, --output <format>', '--profile <id>', '--query <expr>'])
      expect(block.join('\n')).toContain(flag);
    // Nothing of the global options stands between the usage and the group's commands.
    expect(lines.slice(0, commands).join('\n')).not.toContain('--base-url');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('a subcommand: its own options first, then the inherited block', async () => {
    const lines = await helpScreen(['orders', 'list', '--help']);
    const own = lines.findIndex((l) => l.includes('--all'));
    const inherited = heading(lines, 'Inherited options');
    expect(own).toBeGreaterThan(0);
    expect(inherited).toBeGreaterThan(own);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('the top level lists its commands before its options; examples wrap between words, never inside one', async () => {
    const lines = await helpScreen(['--help']);
    expect(heading(lines, 'Commands:')).toBeLessThan(heading(lines, 'Options:'));
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    const text = lines.join('\n');
    // The longest example, joined back from its continued lines, is the example as written.
    const example =
      'echo "$TOKEN" | billing login --env sandbox --with-token --base-url https://…/api/v2 --profile 7';
    const start = text.indexOf('$ echo "$TOKEN"');
    expect(start).toBeGreaterThan(0);
    const shown = text
      .slice(start + 2)
      .split('\n\n')[0]
      ?.replace(/ \\\n\s+/g, ' ');
    expect(shown).toBe(example);
  });
});

describe('help prose and examples at 80 columns', () => {
  /** The lines of text from the first column that run on: each is as full as the next word allows. */
  function expectReflowed(lines: string[], what: string): void {
    for (let at = 0; at + 1 < lines.length; at++) {
      const line = lines[at] ?? '';
      const next = lines[at + 1] ?? '';
      if (line === '' || line.startsWith(' ')) continue;
      expect(line.length, `${what}: ${line}`).toBeLessThanOrEqual(80);
      if (next !== '' && !next.startsWith(' ')) {
        // The next line's first word would not have fitted: the paragraph is filled.
        const word = next.split(' ')[0] ?? '';
        expect(line.length + 1 + word.length, `${what}: "${line}" then "${next}"`).toBeGreaterThan(80);
      }
      // An indented line after prose is a list under a line that announces it, never a
      // paragraph's ragged continuation.
      if (next.startsWith('  ')) expect(line, `${what}: "${line}" then "${next}"`).toMatch(/:$/);
    }
  }

  it('paragraphs written pre-wrapped are re-flowed to the terminal, lists kept', async () => {
    for (const args of [
      ['payments', 'refund', '--help'],
      ['orders', 'list', '--help'],
      ['search', '--help'],
      ['payments', 'list', '--help'],
      ['customers', 'list', '--help'],
      ['orders', 'timeline', '--help'],
    ]) {
      const lines = await helpScreen(args);
      expectReflowed(lines, args.join(' '));
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    }
    const refund = (await helpScreen(['payments', 'refund', '--help'])).join('\n');
    expect(refund).toContain(
      'On a production environment this asks for confirmation at a terminal; without\none it refuses (exit 2) unless --yes is given.',
    );
    // The list of the journal's flags keeps its lines.
    expect(refund).toMatch(/\n {2}--amend {7}go on with the same batch/);
    expect(refund).toMatch(/\n {2}--new-batch {3}move the old journal aside/);
  });

  it("an example's comment that does not fit stands above it; a command is never cut inside a comment or a quote", async () => {
    const lines = await helpScreen(['payments', 'refund', '--help']);
    const at = lines.indexOf('  $ billing payments refund 312 --amount 5.00 --journal refund-312.journal');
    expect(at, lines.join('\n')).toBeGreaterThan(0);
    expect(lines[at - 1]).toBe('  # safe to retry');
    expect(lines).toContain('  $ billing payments refund --file refunds.csv --amend');
    expect(lines).toContain('  # the file was edited: go on');
    for (const args of [
      ['payments', 'refund', '--help'],
      ['emulator', '--help'],
      ['webhooks', 'sign', '--help'],
      ['--help'],
    ]) {
      const shown = await helpScreen(args);
      for (const line of shown) {
        // A comment never continues the shell line (pasting ran "safe: command not found").
        expect(line, args.join(' ')).not.toMatch(/#.*\\$/);
        expect(line.length, line).toBeLessThanOrEqual(80);
      }
    }
    // webhooks sign's example pastes as written: continued lines joined back are the command.
    const sign = (await helpScreen(['webhooks', 'sign', '--help'])).join('\n');
    expect(sign.replace(/ \\\n\s+/g, ' ')).toContain(
      '$ curl -H "X-Service-Signature: $sig" -H "Content-Type: application/json" --data-binary @body.json http://localhost:3000/webhooks',
    );
  });
});

describe('tables at 80 columns', () => {
  it('customers list shows every email whole and leaves out the columns that give up first', async () => {
    const customers = await json(['customers', 'list']);
    const lines = await screen(['customers', 'list']);
    const head = lines[0] ?? '';
    expect(head).toMatch(/^ID\s+NAME\s+EMAIL/);
    expect(head).not.toContain('CREATED');
    for (const c of customers) if (c.email) expect(lines.join('\n')).toContain(c.email);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('orders list shows every invoice id and the date whole; the type gives up first', async () => {
    const orders = await json(['orders', 'list', '--items', '10']);
    const lines = await screen(['orders', 'list', '--items', '10']);
    const head = lines[0] ?? '';
    expect(head).toMatch(/^ID\s+INVOICE ID\s+CUSTOMER/);
    expect(head).toContain('CREATED');
    expect(head).not.toContain('TYPE');
    for (const o of orders) expect(lines.join('\n')).toContain(o.merchant_invoice_id);
    expect(lines.join('\n')).not.toContain('…');
  });
});

describe('finding at 80 columns', () => {
  it('search keeps the email and the invoice ids whole; the amount gives up first', async () => {
    const hits = await json(['search', 'james.obrien@example.com', '--limit', '0']);
    const lines = await screen(['search', 'james.obrien@example.com', '--limit', '0']);
    const at = heading(lines, 'KIND');
    const head = lines[at] ?? '';
    expect(head).toMatch(/ID\s.*EMAIL\s+INVOICE ID/);
    expect(head).not.toContain('AMOUNT');
    const rows = lines.slice(at + 1).filter((l) => /^(customer|order)\s/.test(l));
    expect(rows).toHaveLength(hits.length);
    for (const [i, hit] of hits.entries()) {
      expect(rows[i]).toContain('james.obrien@example.com');
      if (hit.kind === 'order') expect(rows[i]).toContain(hit.record.merchant_invoice_id);
    }
    // The table (stderr's progress line before it is not the table's).
    for (const line of lines.slice(at)) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('orders get shows each payment’s date and amount whole, to the minute', async () => {
    const payments = await json(['orders', 'payments', '174']);
    expect(payments.length).toBeGreaterThan(1);
    const lines = await screen(['orders', 'get', '174']);
    const at = heading(lines, 'Payments (');
    expect(lines[at + 1]).toMatch(/CREATED$/);
    for (const p of payments) {
      const row = lines.slice(at + 2).find((l) => l.startsWith(`${p.id} `)) ?? '';
      const created = new Date(p.created_at).toISOString().slice(0, 16).replace('T', ' ');
      expect(row).toContain(`${created} UTC`);
      expect(row).toContain(`${p.amount} ${p.currency}`);
    }
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
  });
});

describe('links email at 80 columns', () => {
  it('prints the link whole, on a line of its own', async () => {
    const payable = (await json(['orders', 'list', '--all'])).find(
      (o: { status?: { value?: string } }) => o.status?.value === 'pending' || o.status?.value === 'active',
    );
    expect(payable).toBeDefined();
    const lines = await screen(['links', 'email', String(payable.id)]);
    // The order's link, as `links url` prints it in a pipe.
    const url = await runInProcess(['links', 'url', String(payable.id)], { env: emu.env() });
    const link = url.stdout.trim();
    expect(link).toMatch(/^https?:\/\/\S{30,}$/);
    expect(lines).toContain(link);
  });
});

describe('get in a pipe', () => {
  it('is one tab-separated row, the same as the record’s row of list', async () => {
    const get = await runCli(['orders', 'get', '1'], { env: emu.env() });
    expect(get.code).toBe(0);
    const rows = get.stdout.split('\n').filter(Boolean);
    expect(rows).toHaveLength(1);
    const list = await runCli(['orders', 'list', '--all'], { env: emu.env() });
    const same = list.stdout.split('\n').find((l) => l.split('\t')[0] === '1');
    expect(rows[0]).toBe(same);
  });
});
