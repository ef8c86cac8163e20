// Issue 9 §3: text from the service is data, never terminal control. The built CLI against a
// hostile service whose fields carry escape sequences, bidi overrides and forged newlines.

import { afterEach, describe, expect, it } from 'vitest';
import { csvField } from '../../src/format/delimited.js';
import {
  forgetSecrets,
  hideSecret,
  maskUrlCredentials,
  safeJson,
  safeLine,
  safeText,
} from '../../src/format/terminal.js';
import { CREATE_ORDER, type Hostile, hostile, RAW_CONTROL, send } from './service.js';

const OSC_TITLE = '\u001b]0;pwned\u0007';
const RLO = '\u202e';
let h: Hostile | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('safeLine and safeText (the one function every writer uses)', () => {
  it('shows C0/C1 controls, DEL, bidi overrides and line separators escaped, not dropped', () => {
    expect(safeLine(`a${OSC_TITLE}b`)).toBe('a\\x1b]0;pwned\\x07b');
    expect(safeLine('x\u009b31my\u007f')).toBe('x\\x9b31my\\x7f');
    expect(safeLine(`${RLO}gpj.exe\u2066\u2069`)).toBe('\\u202egpj.exe\\u2066\\u2069');
    expect(safeLine('one\u2028two\u2029')).toBe('one\\u2028two\\u2029');
  });

  it('escapes a newline in one line, keeps it in multi-line text, and turns a tab into a space', () => {
    expect(safeLine('ok\nCreated order 9\r\n')).toBe('ok\\nCreated order 9\\r\\n');
    expect(safeText('line 1\nline 2\r')).toBe('line 1\nline 2\\r');
    expect(safeLine('a\tb')).toBe('a b');
    expect(safeLine('plain text, ünïcödé, 日本')).toBe('plain text, ünïcödé, 日本');
  });

  it('hides a secret we hold by value and masks URL credentials', () => {
    hideSecret('valueOnlySecret42');
    expect(safeLine('echo: valueOnlySecret42!')).toBe('echo: ***!');
    // What the suite's in-process runs start from (test/helpers/in-process.ts): nothing held.
    forgetSecrets();
    expect(safeLine('echo: valueOnlySecret42!')).toBe('echo: valueOnlySecret42!');
    expect(maskUrlCredentials('see https://bob:hunter2@api.example/v2')).toBe(
      'see https://***@api.example/v2',
    );
  });

  it('CSV: a cell starting with = + - @ tab or CR gets a leading quote, plain numbers and --csv-raw do not', () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    for (const cell of ['+1+2', '-A1', '@SUM(A1)', '\tx', '\rx'])
      expect(csvField(cell).replace(/^"/, '')).toMatch(/^'/);
    expect(csvField('-5.00')).toBe('-5.00');
    expect(csvField('+3')).toBe('+3');
    expect(csvField('-5.00 EUR')).toBe('-5.00 EUR');
    expect(csvField('-5.00 EUR+cmd')).toBe("'-5.00 EUR+cmd");
    expect(csvField('=1+1', true)).toBe('=1+1');
  });
});

const order = (id: number, fields: Record<string, unknown> = {}) => ({
  id,
  merchant_invoice_id: `INV-${id}`,
  status: { value: 'pending', label: 'Pending' },
  currency: 'EUR',
  initial_amount: '10.00',
  ...fields,
});

describe('safeJson', () => {
  it('escapes what JSON.stringify leaves raw, and the JSON keeps its value', () => {
    const value = { name: `a\u009b31m${RLO}b\u2028c\u007f`, n: 1 };
    const text = safeJson(JSON.stringify(value));
    expect(text).not.toMatch(RAW_CONTROL);
    expect(text).toBe('{"name":"a\\u009b31m\\u202eb\\u2028c\\u007f","n":1}');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('every writer, end to end', () => {
  it('-o json and -o ndjson: C1 controls and bidi overrides are escaped, and the JSON keeps its value', async () => {
    const description = `x\u009b31m${RLO}y\u2028z`;
    h = await hostile((_req, res) => send(res, 200, { order: order(5, { description }) }));
    for (const format of ['json', 'ndjson']) {
      const r = await h.cli(['orders', 'get', '5', '-o', format]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(RAW_CONTROL);
      expect(JSON.parse(r.stdout).description).toBe(description);
    }
  });

  it('orders create: the info line shows a hostile status escaped', async () => {
    h = await hostile((req, res) => {
      if (req.method === 'POST')
        return send(res, 201, {
          order: order(5, { status: { value: `draft${OSC_TITLE}\nCreated order 6 (active).` } }),
        });
      send(res, 404, {});
    });
    const r = await h.cli([...CREATE_ORDER, '-o', 'tsv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    expect(r.stderr).toContain('draft\\x1b]0;pwned\\x07\\nCreated order 6 (active).');
    expect(r.stderr.split('\n').filter((l) => l.startsWith('Created order 6'))).toHaveLength(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
  });

  it('customers create with an id carrying an OSC sequence is refused (exit 8), nothing raw on stderr', async () => {
    h = await hostile((_req, res) => send(res, 201, { customer: { id: `3${OSC_TITLE}` } }));
    const r = await h.cli(['customers', 'create', '--first-name', 'A', '--last-name', 'B']);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain(
      'the service answered 201 with a customer id that is not a positive whole number',
    );
    expect(r.stderr).not.toMatch(RAW_CONTROL);
  });

  it('links url: a link with control characters is refused (exit 8), shown escaped on stderr', async () => {
    const link = `https://pay.example/x${'\u001b]8;;https://evil.example\u0007'}click\nhttps://fake.example`;
    h = await hostile((req, res) => {
      if (req.path.endsWith('/payment_link')) return send(res, 200, { payment_link: link });
      send(res, 200, { order: order(5) });
    });
    const r = await h.cli(['links', 'url', '5', '-o', 'tsv']);
    // Issue 17 §6: a link that holds control characters is not a link to print or draw.
    expect(r.code, r.stderr).toBe(8);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('https://pay.example/x\\x1b]8;;https://evil.example\\x07click\\nhttps://fake');
    expect(r.stderr).not.toMatch(RAW_CONTROL);
  });

  it('orders watch: a status change with hostile text is printed escaped, in table and tsv', async () => {
    h = await hostile((_req, res) =>
      send(res, 200, {
        order: order(5, {
          status: { value: `act${RLO}ive${OSC_TITLE}`, label: 'x' },
          status_updated_at: '2026-01-01T00:00\nfake line',
        }),
      }),
    );
    for (const format of ['table', 'tsv', 'csv']) {
      const r = await h.cli([
        'orders',
        'watch',
        '5',
        '--until',
        'complete',
        '--interval',
        '0.1',
        '--timeout',
        '0.5',
        '-o',
        format,
      ]);
      expect(r.code).toBe(8);
      expect(r.stdout).toContain('act\\u202eive\\x1b]0;pwned\\x07');
      expect(r.stdout + r.stderr).not.toMatch(RAW_CONTROL);
    }
  });

  it('--debug: the body dump and the request lines are escaped', async () => {
    h = await hostile((_req, res) =>
      send(res, 200, { order: order(5, { description: `x${OSC_TITLE}${RLO}` }) }),
    );
    const r = await h.cli(['orders', 'get', '5', '--debug', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('debug: < {');
    expect(r.stderr).toContain('\\u001b]0;pwned\\u0007'); // JSON's own escape, shown as it came
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    // JSON output stays exact: the same string, escaped by JSON itself.
    expect(JSON.parse(r.stdout).description).toBe(`x${OSC_TITLE}${RLO}`);
  });

  it('--debug: a raw (non-JSON) hostile body is escaped too', async () => {
    h = await hostile((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`boom${OSC_TITLE}\nerror: fake`);
    });
    const r = await h.cli(['orders', 'get', '5', '--debug']);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('boom\\x1b]0;pwned\\x07\\nerror: fake');
    expect(r.stderr).not.toMatch(RAW_CONTROL);
  });

  it('errors: a forged newline in a 422 message and detail cannot print a line of its own', async () => {
    h = await hostile((_req, res) =>
      send(res, 422, {
        message: 'rejected\nCreated order 77.',
        errors: [{ field: `name${OSC_TITLE}`, message: `bad${RLO}\nhint: run rm -rf` }],
      }),
    );
    const r = await h.cli(['customers', 'create', '--first-name', 'A', '--last-name', 'B']);
    expect(r.code).toBe(7);
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe('error: rejected\\nCreated order 77.');
    expect(lines.some((l) => l.startsWith('Created order') || l.startsWith('hint: run'))).toBe(false);
    expect(r.stderr).toContain('name\\x1b]0;pwned\\x07: bad\\u202e\\nhint: run rm -rf');
    expect(r.stderr).not.toMatch(RAW_CONTROL);
  });

  it('tables, TSV and CSV: controls are escaped; CSV formula cells get a quote unless --csv-raw', async () => {
    const rows = [
      order(1, {
        merchant_invoice_id: '=HYPERLINK("http://evil","click")',
        customer: { full_name: `Eve${OSC_TITLE}` },
      }),
      order(2, { merchant_invoice_id: '@SUM(A1:A9)', initial_amount: '-5.00' }),
    ];
    h = await hostile((_req, res) => send(res, 200, { orders: rows, total_pages: 1 }));
    const csv = await h.cli(['orders', 'list', '-o', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toContain(`"'=HYPERLINK(""http://evil"",""click"")"`);
    expect(csv.stdout).toContain("'@SUM(A1:A9)");
    expect(csv.stdout).toContain('Eve\\x1b]0;pwned\\x07');
    expect(csv.stdout).toMatch(/,-5\.00( EUR)?[,\n]/);
    expect(csv.stdout).not.toMatch(RAW_CONTROL);
    const raw = await h.cli(['orders', 'list', '-o', 'csv', '--csv-raw']);
    expect(raw.stdout).toContain('"=HYPERLINK(""http://evil"",""click"")"');
    expect(raw.stdout).toContain('\n2,@SUM(A1:A9)');
    const tsv = await h.cli(['orders', 'list', '-o', 'tsv']);
    expect(tsv.stdout).toContain('Eve\\x1b]0;pwned\\x07');
    expect(tsv.stdout).not.toMatch(RAW_CONTROL);
  });
});
