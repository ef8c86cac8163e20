// billing webhooks replay: its description and its code.

import { writeRows } from '../../cli/kit/result.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { BatchFailedError, UsageError } from '../../errors.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { describeEvent } from '../../webhooks/describe.js';
import {
  type DeliveryRecord,
  decodeBody,
  isVerifiedUnchanged,
  RecordFileError,
  readRecords,
} from '../../webhooks/recorder.js';
import { replayHeaders, UNVERIFIED_HEADER } from '../../webhooks/replay.js';
import { Sender } from '../../webhooks/sender.js';
import { SECRET_FLAGS } from './secret-flags.js';
import { RESULT_COLUMNS, resultRow, target } from './send.js';
import { requireSecret } from './shared.js';

export const replayVerb = verb({
  name: 'replay',
  place: 30,
  summary:
    're-send deliveries recorded by listen --record, re-signed now, with their delivery ids; only those verified when recorded and unchanged since are re-signed',
  args: [{ name: '<file>', help: 'an NDJSON file written by listen --record' }],
  flags: [
    { flag: '--to <url>', help: 'where to send them', required: true },
    ...SECRET_FLAGS,
    {
      flag: '--send-unverified',
      help: 'send records recorded with --skip-verify, or changed since, as they are: unsigned, marked X-Billing-Unverified: true (refused otherwise)',
    },
  ],
  examples: ['billing --env local webhooks replay deliveries.ndjson --to http://localhost:3000/webhooks'],
  output: 'list',
  moves: 'none',
});

export default defineCommand(replayVerb, replay);

export async function replay(
  rt: Runtime,
  [file]: string[],
  flags: OptionsOf<typeof replayVerb>,
): Promise<void> {
  const url = target('--to', flags.to);
  const secret = await requireSecret(rt, flags);
  let records: Awaited<ReturnType<typeof readRecords>>;
  try {
    records = await readRecords(file ?? '');
  } catch (err) {
    if (err instanceof RecordFileError) throw new UsageError(`${file}: ${err.message}`);
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
    );
  }
  // Re-signing vouches for a body: only one verified when recorded and unchanged since is.
  // The others are refused before anything is sent, unless asked for as they are.
  const trusted = new Set(records.filter((r) => isVerifiedUnchanged(r, secret.value)));
  const untrusted = records.filter((r) => !trusted.has(r));
  const first = untrusted[0];
  if (first !== undefined && !flags.sendUnverified) {
    const more = untrusted.length > 1 ? ` (and ${untrusted.length - 1} more)` : '';
    throw new UsageError(
      `${file} line ${first.line}${first.delivery_id ? ` (delivery ${first.delivery_id})` : ''} ${whyUntrusted(first)}${more}: replay re-signs only deliveries verified when recorded and unchanged since; nothing was sent`,
      {
        hint: `--send-unverified sends such records as they are: without a signature, marked ${UNVERIFIED_HEADER}: true`,
      },
    );
  }
  const seen = new Set<string>();
  const sender = new Sender();
  const rows: ReturnType<typeof resultRow>[] = [];
  try {
    for (const record of records) {
      if (rt.signal.aborted) break;
      const body = decodeBody(record);
      const signed = trusted.has(record);
      // A signed delivery is named by its body's id, as listen requires.
      const id = (signed ? describeEvent(body).id : null) ?? record.delivery_id ?? null;
      // A recorded retry of the same delivery is sent once.
      if (id !== null && seen.has(id)) continue;
      if (id !== null) seen.add(id);
      const headers = replayHeaders(record.headers, body, {
        id,
        ...(signed ? { signWith: secret.value } : {}),
      });
      const result = await sender.post(url, body, headers, rt.signal);
      const row = resultRow(id, describeEvent(body).event, url, result);
      rows.push(row);
      rt.info(`${id ?? '(no delivery id)'}: ${row.status ?? row.error}`);
    }
  } finally {
    await sender.close();
  }
  await writeRows(rt, rows, RESULT_COLUMNS);
  const failed = rows.filter((r) => r.status === null || r.status < 200 || r.status >= 300).length;
  if (failed > 0)
    throw new BatchFailedError(`${failed} of ${rows.length} deliveries were not accepted by ${url}`);
  rt.info(`Replayed ${rows.length} deliveries to ${url}.`);
}

function whyUntrusted(record: DeliveryRecord): string {
  if (record.verified !== true) return 'was recorded without verification (listen --skip-verify)';
  if (typeof record.verified_digest !== 'string') {
    return 'has no digest of what was verified (recorded by an older billing, or edited)';
  }
  return 'changed since it was recorded, or was recorded under another signing secret';
}
