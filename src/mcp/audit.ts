// billing mcp --audit: what the sessions of the day did, from each session's call log (every
// call, reads and answered repeats included) or, for a session without one, its journal.

import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import type { Column } from '../format/columns.js';
import { write } from '../format/index.js';
import { safeLine } from '../format/terminal.js';
import { type JournalContent, readJournal } from '../ops/batch/journal.js';
import { journalPathOf } from '../ops/batch/name.js';
import type { Runtime } from '../ops/runtime/runtime.js';
import { periodStart } from './guards.js';
import { type CallEntry, callsOf, SESSION_ACTION, sessionJournals, sessionsDir } from './session.js';

/** A call as --audit lists it: as the log keeps it, with its session (and, from a journal, its result). */
export interface AuditRow extends CallEntry {
  /** The session's journal. */
  session: string;
  result_id: number | null;
  request_id: string | null;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const COLUMNS: Column[] = [
  { key: 'at', header: 'At', value: (r: AuditRow) => r.at, fields: ['at'] },
  { key: 'tool', header: 'Tool', value: (r: AuditRow) => r.tool, fields: ['tool'] },
  { key: 'target', header: 'Target', value: (r: AuditRow) => r.target, fields: ['target'] },
  {
    key: 'amount',
    header: 'Amount',
    value: (r: AuditRow) => `${text(r.amount)}${r.currency ? ` ${r.currency}` : ''}`,
    fields: ['amount', 'currency'],
  },
  { key: 'state', header: 'State', value: (r: AuditRow) => r.state, fields: ['state'] },
  { key: 'result_id', header: 'Result', value: (r: AuditRow) => text(r.result_id), fields: ['result_id'] },
];

/** "refund_payment:120|5.00#r1" → its parts. */
function parseKey(key: string): { tool: string; detail: string | null; requestId: string | null } {
  const hash = key.indexOf('#');
  const head = hash < 0 ? key : key.slice(0, hash);
  const bar = head.indexOf('|');
  return {
    tool: head.slice(0, Math.max(head.indexOf(':'), 0)),
    detail: bar < 0 ? null : head.slice(bar + 1),
    requestId: hash < 0 ? null : key.slice(hash + 1),
  };
}

/**
 * billing mcp --audit: every session of the period (today, UTC: the period of --max-total),
 * newest first, each call with its tool, target, amount, state and why, reads and answered
 * repeats included (the session's call log); --journal FILE: that session alone.
 */
export async function audit(rt: Runtime, given: string | undefined): Promise<void> {
  const dir = sessionsDir(rt.env);
  const paths = given === undefined ? (await sessionJournals(dir)).reverse() : [await journalPathOf(given)];
  const from = periodStart(Date.now());
  const sessions: { path: string; created: string; rows: AuditRow[] }[] = [];
  for (const path of paths) {
    const content = await readJournal(path);
    if (content.header?.action !== SESSION_ACTION) {
      if (given !== undefined) throw new UsageError(`${path} is not the journal of a billing mcp session`);
      continue;
    }
    const rows = await callsOfSession(path, content);
    const recent = rows.some((r) => Date.parse(r.at) >= from) || Date.parse(content.header.created) >= from;
    if (given === undefined && !recent) continue;
    sessions.push({ path, created: content.header.created, rows });
  }
  if (sessions.length === 0) {
    throw new UsageError(
      given === undefined ? `no billing mcp session today (UTC) in ${dir}` : `no calls in ${given}`,
      { hint: 'give the journal a server printed at start: billing mcp --audit --journal FILE' },
    );
  }
  const calls = sessions.reduce((n, s) => n + s.rows.length, 0);
  rt.info(
    `${sessions.length} session${sessions.length === 1 ? '' : 's'}${given === undefined ? ' today (UTC)' : ''}, ${calls} call${calls === 1 ? '' : 's'}, newest session first:`,
    ...sessions.map(
      (s) => `  ${s.path} (started ${s.created}): ${s.rows.length} call${s.rows.length === 1 ? '' : 's'}`,
    ),
  );
  const rows = sessions.flatMap((s) => s.rows);
  await write(
    rt.output,
    {
      list: rows,
      columns: [
        ...COLUMNS,
        { key: 'why', header: 'Why', value: (r: AuditRow) => text(r.why), fields: ['why'] },
      ],
    },
    {
      // At a screen a reason is shown whole, wrapped at 80 columns under its call.
      screen: async () => {
        for (const s of sessions) {
          rt.io.stdout.write(`Session started ${s.created}, journal:\n  ${safeLine(s.path)}\n`);
          if (s.rows.length === 0) {
            rt.io.stdout.write('  no calls\n');
            continue;
          }
          await write(rt.output, { list: s.rows, columns: COLUMNS });
          for (const r of s.rows.filter((row) => row.why)) {
            rt.io.stdout.write(
              `${wrap(`${r.at} ${r.tool} ${r.target}: ${safeLine(r.why ?? '')}`, 80, '    ')}\n`,
            );
          }
        }
      },
    },
  );
}

/** A session's calls: its call log when it has one (every call), else its journal's rows (the writes). */
async function callsOfSession(path: string, content: JournalContent): Promise<AuditRow[]> {
  const logged = await readFile(callsOf(path), 'utf8').catch(() => undefined);
  if (logged !== undefined) {
    return logged
      .split('\n')
      .filter((line) => line.trim() !== '')
      .flatMap((line) => {
        try {
          const c = JSON.parse(line) as CallEntry;
          return [{ session: path, ...c, result_id: null, request_id: null }];
        } catch {
          return [];
        }
      })
      .reverse();
  }
  return [...content.history.values()]
    .map(({ last, started }) => {
      const key = parseKey(last.key);
      return {
        session: path,
        at: last.at,
        tool: key.tool,
        target: `${key.tool.endsWith('_order') || key.tool === 'send_payment_link' ? 'order' : 'payment'} ${last.id}`,
        amount: last.amount ?? started?.amount ?? null,
        currency: started?.currency ?? null,
        state: last.state,
        result_id: last.result_id ?? null,
        request_id: key.requestId,
        why: last.error ?? null,
      };
    })
    .reverse();
}

/** Words wrapped at `width` columns, every line after the first indented. */
function wrap(line: string, width: number, indent: string): string {
  const out: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    if (current !== '' && current.length + 1 + word.length > width) {
      out.push(current);
      current = `${indent}${word}`;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  if (current !== '') out.push(current);
  return out.join('\n');
}
