import { describe, expect, it } from 'vitest';
import { pageFooter } from '../../src/cli/kit/run-list.js';
import { textColumn } from '../../src/format/columns.js';
import { renderList, wrapText } from '../../src/format/table.js';
import { displayWidth, formatTimestamp } from '../../src/format/text.js';

describe('wrapText', () => {
  it('breaks at spaces and keeps every word', () => {
    const lines = wrapText('Three bags of coffee every month, ground fresh', 12);
    expect(lines).toEqual(['Three bags', 'of coffee', 'every month,', 'ground fresh']);
  });

  it('splits a word longer than a line (a URL) across lines instead of cutting it', () => {
    const url = 'http://127.0.0.1:4010/portal/57d156edd55c6b08a0abc832797b13c1';
    const lines = wrapText(`link ${url}`, 20);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(20);
    expect(lines.join('').replace(/^link/, '')).toBe(url);
  });

  it('counts wide characters as two columns and always moves on', () => {
    const lines = wrapText('注文注文注文', 4);
    expect(lines).toEqual(['注文', '注文', '注文']);
    expect(wrapText('注文', 1)).toEqual(['注', '文']);
  });

  it('leaves text that fits, and text without a width, alone', () => {
    expect(wrapText('short', 10)).toEqual(['short']);
    expect(wrapText('no width given at all', 0)).toEqual(['no width given at all']);
  });
});

describe('pageFooter', () => {
  it('says which page of how many, how many records, and how to see more', () => {
    expect(pageFooter({ records: [], currentPage: 1, totalPages: 10, totalCount: 200 }, 1, 'orders')).toBe(
      'page 1 of 10 · 200 orders · --page 2 or --all',
    );
  });

  it('on the last page says nothing about more', () => {
    expect(pageFooter({ records: [], currentPage: 10, totalPages: 10, totalCount: 200 }, 10, 'orders')).toBe(
      'page 10 of 10 · 200 orders',
    );
  });

  it('says less when the service gives less, and nothing when it gives nothing', () => {
    expect(pageFooter({ records: [], totalCount: 7 }, 1, 'customers')).toBe('7 customers');
    expect(pageFooter({ records: [], totalPages: 3 }, 2, 'products')).toBe('page 2 of 3 · --page 3 or --all');
    expect(pageFooter({ records: [] }, 1, 'orders')).toBe('');
  });
});

describe('formatTimestamp', () => {
  it('prints one form for people, in UTC and saying so', () => {
    expect(formatTimestamp('2027-07-31T09:00:00.000Z')).toBe('2027-07-31 09:00 UTC');
    expect(formatTimestamp('2027-07-31T11:00:00+02:00')).toBe('2027-07-31 09:00 UTC');
    expect(formatTimestamp('2027-07-31 09:00')).toBe('2027-07-31 09:00 UTC');
    expect(formatTimestamp('1982-12-19')).toBe('1982-12-19');
    expect(formatTimestamp('soon')).toBe('soon');
  });
});

describe('a table narrower than its columns', () => {
  const columns = [
    textColumn('id', 'ID', undefined, { keep: true }),
    textColumn('email', 'Email', undefined, { keep: true }),
    textColumn('note', 'Note'),
    textColumn('country', 'Country', undefined, { giveUp: 2 }),
    textColumn('created', 'Created', undefined, { giveUp: 1 }),
  ];
  const rows = [
    {
      id: '7',
      email: 'emma.johansson@example.com',
      note: 'a long note that can be cut when there is no room for it',
      country: 'SE',
      created: '2026-08-03 04:21 UTC',
    },
  ];

  it('leaves out the columns that give up, first the first, and cuts the others before a kept one', () => {
    const lines = renderList(rows, columns, { color: false, width: 60 }).split('\n');
    expect(lines[0]).toMatch(/^ID\s+EMAIL\s+NOTE$/);
    expect(lines[1]).toContain('emma.johansson@example.com');
    expect(lines[1]).toContain('…');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(60);
    expect(renderList(rows, columns, { color: false, width: 100 }).split('\n')[0]).toContain('COUNTRY');
    expect(renderList(rows, columns, { color: false, width: 100 }).split('\n')[0]).not.toContain('CREATED');
  });

  it('shows every column of a row that fits, and cuts a kept column only when nothing else can give', () => {
    expect(renderList(rows, columns, { color: false, width: 200 }).split('\n')[0]).toContain('CREATED');
    const narrow = renderList(rows, columns, { color: false, width: 24 }).split('\n');
    for (const line of narrow) expect(displayWidth(line)).toBeLessThanOrEqual(24);
  });
});
