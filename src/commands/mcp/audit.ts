// billing mcp --audit: what a session did, from its journal: one row a call (its latest state),
// in the order the calls came. Without --journal, the newest session in the state directory.

import { UsageError } from '../../errors.js';
import type { Column } from '../../format/columns.js';
import { writeList } from '../../format/index.js';
import { readJournal } from '../batch/journal.js';
import { journalPathOf } from '../batch/open.js';
import type { Runtime } from '../runtime.js';
import { latestSession, SESSION_ACTION, sessionsDir } from './session.js';

export interface AuditRow {
  at: string;
  tool: string;
  id: number;
  detail: string | null;
  request_id: string | null;
  state: string;
  amount: string | null;
  currency: string | null;
  result_id: number | null;
  error: string | null;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const COLUMNS: Column[] = [
  { key: 'at', header: 'At', value: (r: AuditRow) => r.at, fields: ['at'] },
  { key: 'tool', header: 'Tool', value: (r: AuditRow) => r.tool, fields: ['tool'] },
  { key: 'id', header: 'ID', value: (r: AuditRow) => text(r.id), fields: ['id'] },
  { key: 'state', header: 'State', value: (r: AuditRow) => r.state, fields: ['state'] },
  {
    key: 'amount',
    header: 'Amount',
    value: (r: AuditRow) => `${text(r.amount)}${r.currency ? ` ${r.currency}` : ''}`,
    fields: ['amount', 'currency'],
  },
  { key: 'result_id', header: 'Result', value: (r: AuditRow) => text(r.result_id), fields: ['result_id'] },
  { key: 'detail', header: 'Detail', value: (r: AuditRow) => text(r.detail), fields: ['detail'] },
  {
    key: 'request_id',
    header: 'Request',
    value: (r: AuditRow) => text(r.request_id),
    fields: ['request_id'],
  },
  { key: 'error', header: 'Error', value: (r: AuditRow) => text(r.error), fields: ['error'] },
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

export async function audit(rt: Runtime, given: string | undefined): Promise<void> {
  const path = given === undefined ? await latestSession(rt.env) : await journalPathOf(given);
  if (path === undefined) {
    throw new UsageError(`no session journal in ${sessionsDir(rt.env)}`, {
      hint: 'give the journal a server printed at start: billing mcp --audit --journal FILE',
    });
  }
  const content = await readJournal(path);
  if (content.header?.action !== SESSION_ACTION) {
    throw new UsageError(`${path} is not the journal of a billing mcp session`);
  }
  const rows: AuditRow[] = [...content.history.values()].map(({ last, started }) => {
    const key = parseKey(last.key);
    return {
      at: last.at,
      tool: key.tool,
      id: last.id,
      detail: key.detail,
      request_id: key.requestId,
      state: last.state,
      amount: last.amount ?? started?.amount ?? null,
      currency: started?.currency ?? null,
      result_id: last.result_id ?? null,
      error: last.error ?? null,
    };
  });
  rt.info(
    `Session of ${content.header.created}, journal ${path}: ${rows.length} call${rows.length === 1 ? '' : 's'}.`,
  );
  await writeList(rows, COLUMNS, rt.output);
}
