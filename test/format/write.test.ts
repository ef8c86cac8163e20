import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  COLUMNS,
  OUTPUT_FORMATS,
  type OutputFormat,
  type ResourceName,
  traitsOf,
  writeList,
  writeOne,
} from '../../src/format/index.js';
import { ANSI, capture, ORDER, ORDERS, output, V1_ORDER } from './fixtures.js';

/** The formats that write records as they arrive (FORMATS' `streams`). */
const STREAMING = OUTPUT_FORMATS.filter((format) => traitsOf(format).streams);

async function list(format: OutputFormat, records: unknown[], extra = {}, resource: ResourceName = 'order') {
  const { stream, text } = capture();
  const count = await writeList(records, resource, output(format, stream, extra));
  return { count, text: text() };
}

async function one(format: OutputFormat, record: unknown, extra = {}, resource: ResourceName = 'order') {
  const { stream, text } = capture();
  await writeOne(record, resource, output(format, stream, extra));
  return text();
}

/** A tiny RFC 4180 reader, to check what our writer produces. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  return rows;
}

async function* slowly<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    yield item;
  }
}

describe('json', () => {
  it('prints the records exactly as given, as a pretty array', async () => {
    const { text, count } = await list('json', ORDERS);
    expect(count).toBe(3);
    expect(JSON.parse(text)).toEqual(ORDERS);
    expect(text).toBe(`${JSON.stringify(ORDERS, null, 2)}\n`);
  });

  it('is valid JSON for 0, 1 and many records, also from an async source', async () => {
    for (const n of [0, 1, 250]) {
      const records = Array.from({ length: n }, (_, i) => ({ id: i, note: `line\n"${i}"` }));
      const { stream, text } = capture();
      const count = await writeList(slowly(records), 'order', output('json', stream));
      expect(count).toBe(n);
      expect(JSON.parse(text())).toEqual(records);
    }
    expect((await list('json', [])).text).toBe('[]\n');
  });

  it('prints one record as a pretty object, unchanged', async () => {
    const text = await one('json', ORDER);
    expect(text).toBe(`${JSON.stringify(ORDER, null, 2)}\n`);
  });
});

describe('ndjson', () => {
  it('prints one compact record per line', async () => {
    const { text } = await list('ndjson', ORDERS);
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => JSON.parse(l))).toEqual(ORDERS);
    expect(lines[0]).not.toContain('\n  ');
    expect(await one('ndjson', V1_ORDER)).toBe(`${JSON.stringify(V1_ORDER)}\n`);
  });

  it('prints nothing for an empty list', async () => {
    expect((await list('ndjson', [])).text).toBe('');
  });
});

describe('csv', () => {
  it('has a header of lower_snake keys, then one row per record', async () => {
    const rows = parseCsv((await list('csv', ORDERS)).text);
    expect(rows[0]).toEqual([
      'id',
      'invoice_id',
      'customer',
      'type',
      'status',
      'amount',
      'currency',
      'created',
    ]);
    expect(rows[1]).toEqual([
      '1042',
      'INV-1042',
      'Jane Doe',
      'Single Payment',
      'active',
      '49.90',
      'EUR',
      ORDER.created_at,
    ]);
    expect(rows[3]).toEqual(['77', 'SUB-77', '12', '', '', '10.00', '', '']);
    expect(rows).toHaveLength(4);
  });

  it('quotes commas, quotes and line breaks (RFC 4180) and reads back the same', async () => {
    const tricky = {
      id: 1,
      merchant_invoice_id: 'a,b',
      customer: { full_name: 'Jane "JJ" Doe' },
      order_type: 'x\ny',
    };
    const { text } = await list('csv', [tricky]);
    expect(text.split('\n')[1]).toBe('1,"a,b","Jane ""JJ"" Doe","x');
    expect(parseCsv(text)[1]?.slice(0, 4)).toEqual(['1', 'a,b', 'Jane "JJ" Doe', 'x\ny']);
    // Issue 34 §4: a carriage return is escaped, never written raw, even in a quoted cell.
    const cr = (await list('csv', [{ id: 1, merchant_invoice_id: 'cr\rhere, "q"' }])).text;
    expect(cr).toContain('"cr\\rhere, ""q"""');
    expect(cr).not.toContain('\r');
  });

  it('one record is a header and one row; an empty list keeps its header', async () => {
    expect(parseCsv(await one('csv', ORDER))).toHaveLength(2);
    expect((await list('csv', [])).text).toBe('id,invoice_id,customer,type,status,amount,currency,created\n');
  });
});

describe('tsv', () => {
  it('has no header: one line per record, fields split by single tabs', async () => {
    const { text } = await list('tsv', ORDERS);
    const lines = text.split('\n').slice(0, -1);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      ['1042', 'INV-1042', 'Jane Doe', 'Single Payment', 'active', '49.90', 'EUR', ORDER.created_at].join(
        '\t',
      ),
    );
    expect(lines[2]?.split('\t')).toEqual(['77', 'SUB-77', '12', '', '', '10.00', '', '']);
    expect(text).not.toMatch(/\bid\tinvoice/i);
  });

  it('turns tabs into spaces, and shows line breaks and escape sequences escaped', async () => {
    const nasty = {
      id: 1,
      merchant_invoice_id: 'a\tb\nc\r\nd',
      customer: { full_name: '\x1b[31mred\x1b[0m' },
    };
    const text = await one('tsv', nasty);
    expect(text).toBe('1\ta b\\nc\\r\\nd\t\\x1b[31mred\\x1b[0m\t\t\t\t\t\n');
    expect(text).not.toMatch(ANSI);
    expect(text.split('\t')).toHaveLength(COLUMNS.order.length);
  });

  it('never colours, even when colour is on', async () => {
    const { text } = await list('tsv', ORDERS, { color: true });
    expect(text).not.toMatch(ANSI);
  });
});

describe('table', () => {
  it('has a header and aligned columns separated by two spaces, without borders', async () => {
    const { text, count } = await list('table', ORDERS);
    expect(count).toBe(3);
    const lines = text.split('\n').slice(0, -1);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^ID {4}INVOICE ID {2}CUSTOMER {2}TYPE {12}STATUS {3}AMOUNT {5}CREATED$/);
    expect(lines[1]).toBe(
      '1042  INV-1042    Jane Doe  Single Payment  active   49.90 EUR  2024-05-01 10:20 UTC',
    );
    expect(lines[3]).toBe('77    SUB-77      12                                 10.00');
    expect(text).not.toMatch(/[│┌─]/);
  });

  it('prints one line for an empty list', async () => {
    expect((await list('table', [])).text).toBe('No orders found.\n');
    expect((await list('table', [], {}, 'config_entry')).text).toBe('No config entries found.\n');
  });

  it('colours the status and bolds the header only when colour is on', async () => {
    const on = (await list('table', ORDERS, { color: true })).text;
    expect(on).toContain('\x1b[32mactive\x1b[39m');
    expect(on).toContain('\x1b[36mpending\x1b[39m');
    expect(on).toContain('\x1b[1mID\x1b[22m');
    const off = (await list('table', ORDERS, { color: false })).text;
    expect(off).not.toMatch(ANSI);
  });

  it('colours refund results: refunded green, skipped dim, failed red', async () => {
    const results = [
      { payment_id: 1, status: 'refunded' },
      { payment_id: 2, status: 'skipped' },
      { payment_id: 3, status: 'failed', error: 'no' },
    ];
    const { text } = await list('table', results, { color: true }, 'refund_result');
    expect(text).toContain('\x1b[32mrefunded\x1b[39m');
    expect(text).toContain('\x1b[2mskipped\x1b[22m');
    expect(text).toContain('\x1b[31mfailed\x1b[39m');
  });

  it('keeps the columns aligned around coloured text', async () => {
    const on = (await list('table', ORDERS, { color: true })).text.replace(/\x1b\[\d+m/g, '');
    const off = (await list('table', ORDERS, { color: false })).text;
    expect(on).toBe(off);
  });

  it('truncates long values with … to fit the width', async () => {
    const long = { ...ORDER, customer: { full_name: 'A'.repeat(200) } };
    const { text } = await list('table', [long, ORDER], { width: 80 });
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(text).toContain('A…');
    expect(text).toContain('INV-1042');
    const wide = (await list('table', [long])).text;
    expect(wide).toContain('A'.repeat(200));
  });

  it('strips escape sequences coming from the service', async () => {
    const { text } = await list('table', [{ id: 1, merchant_invoice_id: '\x1b[2Jgone\x07' }], {
      color: false,
    });
    expect(text).not.toContain('\x1b');
    expect(text).not.toContain('\x07');
    expect(text).toContain('[2Jgone');
  });
});

describe('writeOne as a table', () => {
  it('shows the columns as Field  value, then every other field, nested objects and lists in sections', async () => {
    const text = await one('table', ORDER, { width: 200 });
    expect(text).toMatch(/^ID\s{2,}1042$/m);
    expect(text).toMatch(/^Invoice ID\s{2,}INV-1042$/m);
    expect(text).toMatch(/^Customer\s{2,}Jane Doe$/m);
    expect(text).toMatch(/^Status\s{2,}active$/m);
    expect(text).toMatch(/^Amount\s{2,}49\.90 EUR$/m);
    expect(text).toMatch(/^Created\s{2,}2024-05-01 10:20 UTC$/m);
    // fields that are not columns are not hidden, and timestamps read the same everywhere
    expect(text).toMatch(/^Channel\s{2,}ECOM$/m);
    expect(text).toMatch(/^Card details saved\s{2,}Yes$/m);
    expect(text).toMatch(/^Collect initial payment\s{2,}true$/m);
    expect(text).toMatch(/^Tag list\s{2,}vip, gym$/m);
    expect(text).toMatch(/^Updated at\s{2,}2024-05-02 08:00 UTC$/m);
    // nested objects: a section each, one line per field
    expect(text).toMatch(/^Customer details\n {2}Full name\s{2,}Jane Doe\n/m);
    expect(text).toMatch(/^ {2}Email\s{2,}jane@example\.com$/m);
    expect(text).toMatch(
      /^Summary\n {2}Products total\s{2,}54\.90\n {2}Fee total\s{2,}0\.00\n {2}Tax type$/m,
    );
    // covered fields are not repeated
    expect(text).not.toMatch(/^Merchant invoice id/m);
    expect(text).not.toMatch(/^Initial amount/m);
    // order_products: every field of every item
    expect(text).toMatch(/^Order products 2 of 2\n {2}ID\s+2\n {2}Product ID\s+4\n {2}Name\s+Towel\n/m);
    expect(text).toMatch(/^ {2}Subtotal amount\s{2,}5\.00$/m);
    expect(text).not.toMatch(/undefined|\[object Object\]|…/);
    expect(text).not.toMatch(ANSI);
  });

  it('wraps long values within the width instead of cutting them', async () => {
    const long = { ...ORDER, description: `${'word '.repeat(30)}end`, note: 'x'.repeat(130) };
    for (const width of [60, 80]) {
      const text = await one('table', long, { width });
      for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(width);
      expect(text).not.toContain('…');
      const joined = text.replace(/\n\s+/g, ' ');
      expect(joined).toContain(`${'word '.repeat(30)}end`);
      expect(text.replace(/\n\s+/g, '')).toContain('x'.repeat(130));
    }
  });

  it('shows the v1 form without inventing anything', async () => {
    const text = await one('table', V1_ORDER);
    expect(text).toMatch(/^Invoice ID\s{2,}SUB-77$/m);
    expect(text).toMatch(/^Customer\s{2,}12$/m);
    expect(text).toMatch(/^Total fee amount\s{2,}0\.00$/m);
    expect(text).toMatch(/^Profile ID\s{2,}1$/m);
    expect(text).not.toMatch(/undefined|null|\[object Object\]/);
  });

  it('colours the status when colour is on', async () => {
    expect(await one('table', ORDER, { color: true })).toContain('\x1b[32mactive\x1b[39m');
  });
});

describe('colour off means no escape sequences in any format', () => {
  for (const resource of Object.keys(COLUMNS) as ResourceName[]) {
    it(resource, async () => {
      for (const format of OUTPUT_FORMATS) {
        expect((await list(format, ORDERS, {}, resource)).text).not.toMatch(ANSI);
        expect(await one(format, ORDER, {}, resource)).not.toMatch(ANSI);
      }
    });
  }
});

describe('backpressure', () => {
  function slowStream() {
    const chunks: string[] = [];
    let writesWhileFull = 0;
    const stream = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk.toString());
        setTimeout(callback, 2);
      },
    });
    const write = stream.write.bind(stream) as (chunk: string) => boolean;
    stream.write = ((chunk: string) => {
      if (stream.writableNeedDrain) writesWhileFull++;
      return write(chunk);
    }) as typeof stream.write;
    return { stream, chunks, writesWhileFull: () => writesWhileFull };
  }

  for (const format of STREAMING) {
    it(`${format}: waits for drain, reads the source only as fast as it writes, loses nothing`, async () => {
      const slow = slowStream();
      // Records of ~8 KB: the sink gathers up to 64 KB before a write (src/format/sink.ts), so
      // no more than ~8 records may be read ahead of what the stream took.
      const records = Array.from({ length: 40 }, (_, i) => ({
        id: i,
        merchant_invoice_id: `INV-${i}-${'x'.repeat(8000)}`,
      }));
      let pulled = 0;
      let maxAhead = 0;
      const written = () => slow.chunks.join('').split('INV-').length - 1;
      async function* source() {
        for (const record of records) {
          pulled++;
          maxAhead = Math.max(maxAhead, pulled - written());
          yield record;
        }
      }
      const count = await writeList(source(), 'order', output(format, slow.stream));
      expect(count).toBe(40);
      expect(slow.writesWhileFull()).toBe(0);
      expect(maxAhead).toBeLessThanOrEqual(10);
      const text = slow.chunks.join('');
      if (format === 'json') expect(JSON.parse(text)).toEqual(records);
      if (format === 'ndjson')
        expect(
          text
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l)),
        ).toEqual(records);
      if (format === 'tsv')
        expect(
          text
            .trim()
            .split('\n')
            .map((l) => l.split('\t')[0]),
        ).toEqual(records.map((r) => String(r.id)));
      if (format === 'csv') expect(text.trim().split('\n')).toHaveLength(41);
    });
  }
});

describe('a closed reader', () => {
  function epipeAfter(n: number) {
    let writes = 0;
    return new Writable({
      write(_chunk, _encoding, callback) {
        writes++;
        if (writes > n) callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
        else callback();
      },
    });
  }

  it('EPIPE midway stops writing and stops reading the source, without throwing', async () => {
    let finished = false;
    let pulled = 0;
    function* endless() {
      try {
        for (;;) {
          // Bounded, so that a writer that ignores EPIPE fails this test instead of hanging it.
          if (++pulled > 50_000) throw new Error('kept reading after the reader went away');
          yield { id: pulled };
        }
      } finally {
        finished = true;
      }
    }
    for (const format of STREAMING) {
      finished = false;
      pulled = 0;
      const count = await writeList(endless(), 'order', output(format, epipeAfter(3)));
      expect(count).toBeLessThan(5000);
      expect(finished).toBe(true);
    }
  });

  it('an EPIPE from an async source does not throw either', async () => {
    const records = Array.from({ length: 20 }, (_, i) => ({ id: i }));
    await expect(writeList(slowly(records), 'order', output('ndjson', epipeAfter(2)))).resolves.toBeLessThan(
      20,
    );
  });

  it('a destroyed stream is not written to and nothing throws', async () => {
    for (const format of OUTPUT_FORMATS) {
      const { stream, text } = capture();
      stream.destroy();
      await expect(writeList(ORDERS, 'order', output(format, stream))).resolves.toBe(0);
      await expect(writeOne(ORDER, 'order', output(format, stream))).resolves.toBeUndefined();
      expect(text()).toBe('');
    }
  });

  it('an error that is not a closed reader is reported', async () => {
    const stream = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
      },
    });
    await expect(writeList(slowly(ORDERS), 'order', output('ndjson', stream))).rejects.toThrow(/no space/);
  });
});
