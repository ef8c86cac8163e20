// Issue 33 §3: a journal lost and restored from a backup taken mid-run. The backup is taken once
// 2 of 5 refunds are journaled (the service answers each refund slowly, one row at a time); the
// run finishes; the backup is put back over the journal and the batch is run again. The
// service's record is the truth: each payment has exactly one refund, the service saw exactly 5
// refund requests, and the summary tells the rows the journal shows done from the rows the
// service shows done before (naming their refunds).

import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { parseNdjson, runCli, tempDir } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { checkAnswer } from '../helpers/openapi.js';
import { journalLines, refundsOf, seedPayments, waitFor } from '../payments/helpers.js';

const open: TestEmulator[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
});

/** The emulator, answering each refund after `slowMs`, and the refund requests it answered. */
async function countingService(slowMs: number): Promise<{ emu: TestEmulator; refundPosts: () => number }> {
  let posts = 0;
  const emu = await startTestEmulator({
    faults: [{ route: 'refund', mode: 'slow', latency_ms: slowMs }] as never,
    onAnswer: (answer) => {
      checkAnswer(answer);
      if (answer.method === 'POST' && /\/payments\/\d+\/refund$/.test(answer.path)) posts += 1;
    },
  });
  open.push(emu);
  return { emu, refundPosts: () => posts };
}

/**
 * The backup as it was the moment the second row was journaled refunded: the journal is only
 * ever appended to, so its lines up to that record are what a backup taken then held (a copy
 * taken a moment later may also hold the third row's start; this keeps the test exact).
 */
function backupAfterSecondDone(copy: string): string {
  const lines = readFileSync(copy, 'utf8').split('\n');
  let done = 0;
  const kept: string[] = [];
  for (const line of lines) {
    kept.push(line);
    if (line.includes('"state":"refunded"') && ++done === 2) break;
  }
  expect(done, 'the backup holds two rows refunded').toBe(2);
  return `${kept.join('\n')}\n`;
}

it('a journal restored from a backup taken after 2 of 5 rows: nothing is sent again, 5 refund requests in all, and the summary names the 3 rows done before as the service shows', async () => {
  const { emu, refundPosts } = await countingService(600);
  const { payments } = await seedPayments(emu.url, 5);
  const dir = tempDir('billing-restored-');
  const file = join(dir, 'refunds.csv');
  writeFileSync(file, `payment_id,amount\n${payments.map((p) => `${p},1.00`).join('\n')}\n`);
  const journal = join(dir, 'refunds.journal');
  const env = emu.env();
  const args = [
    'payments',
    'refund',
    '--file',
    file,
    '--journal',
    journal,
    '--concurrency',
    '1',
    '-o',
    'ndjson',
  ];

  const first = runCli(args, { env, timeoutMs: 60_000 });
  await waitFor(() => journalLines(journal).filter((r) => r.state === 'refunded').length >= 2);
  const copy = join(dir, 'backup.journal');
  copyFileSync(journal, copy);
  const finished = await first;
  expect(finished.code, finished.stderr).toBe(0);
  expect(refundPosts()).toBe(5);

  // The journal is lost and restored from the backup.
  writeFileSync(journal, backupAfterSecondDone(copy));
  const again = await runCli(args, { env, timeoutMs: 60_000 });
  expect(again.code, again.stderr).toBe(0);

  // The service's record: one refund a payment, and no refund request more than the first run's.
  for (const p of payments) expect(refundsOf(emu.emulator.state, p), `payment ${p}`).toEqual(['1.00']);
  expect(refundPosts()).toBe(5);

  // Each row's result: skipped, with the refund that did it.
  const refundOf = (p: number) =>
    [...emu.emulator.state.payments.values()].find((x) => x.parent_id === p && x.kind === 'refund')?.id;
  const rows = parseNdjson(again.stdout) as {
    payment_id: number;
    status: string;
    refund_id: number | null;
  }[];
  expect(rows.map((r) => r.status)).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'skipped']);
  expect(rows.map((r) => r.refund_id)).toEqual(payments.map(refundOf));

  // The summary: the 2 rows the restored journal shows done apart from the 3 the service shows
  // done before, each of those named with its refund.
  expect(again.stderr).toMatch(
    /0 refunded, 5 skipped \(2 refunded by an earlier run of the batch of \S+, 3 done before, as the service shows\), 0 failed, of 5 rows/,
  );
  const named = again.stderr.split('\n').filter((l) => l.startsWith('done before, as the service shows:'));
  expect(named).toHaveLength(3);
  payments.slice(2).forEach((p, i) => {
    expect(named[i]).toContain(`line ${i + 4}, payment ${p}: refund ${refundOf(p)} of 1.00`);
  });
});
