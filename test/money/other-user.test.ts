// Issue 33 §3: the batch root ran before, run by another user. Its journal (root's, 0600) is
// refused with what to do (exit 12, naming the owner), not a bare EACCES; and given another
// --journal, the rows root refunded are skipped as done before: the service's record is the
// truth, whatever the user. The other user is made with useradd and runs with runuser.

import { execFile } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, parseNdjson, runCli, tempDir } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { need } from '../helpers/needs.js';
import { otherUser, runnableByOthers } from '../helpers/other-user.js';
import { refundsOf, seedPayments } from '../payments/helpers.js';

const users = need('users');
let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
});

/** The built CLI run as the other user, with the emulator's environment and folders of its own. */
function asOther(args: string[], home: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const { node, bin } = runnableByOthers();
  const env = emu.env({
    BILLING_CONFIG_DIR: join(home, 'config'),
    BILLING_STATE_DIR: join(home, 'state'),
    HOME: home,
  });
  return new Promise((resolve) => {
    execFile(
      'runuser',
      ['-u', otherUser(), '--', node, bin, ...args],
      { env: env as NodeJS.ProcessEnv, timeout: 60_000, cwd: '/' },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe.skipIf(users.skip)(`a batch root ran, run by another user${users.label}`, () => {
  it("root's journal is refused naming its owner and what to do (exit 12); with another --journal, root's rows are done before: 0 refunded twice", async () => {
    const { payments } = await seedPayments(emu.url, 3);
    const shared = tempDir('billing-shared-');
    chmodSync(shared, 0o755);
    const file = join(shared, 'r.csv');
    writeFileSync(file, `payment_id,amount\n${payments.map((p) => `${p},1.00`).join('\n')}\n`);
    chmodSync(file, 0o644);
    const root = await runCli(['payments', 'refund', '--file', file], { env: baseEnv(emu.env()) });
    expect(root.code, root.stderr).toBe(0);

    const home = tempDir('billing-other-home-');
    chmodSync(home, 0o755);
    mkdirSync(join(home, 'config'), { mode: 0o700 });
    mkdirSync(join(home, 'state'), { mode: 0o700 });
    const uid = Number(
      (await import('node:child_process')).execFileSync('id', ['-u', otherUser()]).toString(),
    );
    for (const d of [home, join(home, 'config'), join(home, 'state')]) chownSync(d, uid, uid);

    const refused = await asOther(['payments', 'refund', '--file', file], home);
    expect(refused.code, refused.stderr).toBe(12);
    expect(refused.stderr).toContain(`the journal ${file}.journal belongs to root`);
    expect(refused.stderr).toContain('run the batch again as root');

    const own = await asOther(
      ['payments', 'refund', '--file', file, '--journal', join(home, 'mine.journal'), '-o', 'ndjson'],
      home,
    );
    expect(own.code, own.stderr).toBe(0);
    expect((parseNdjson(own.stdout) as { status: string }[]).map((r) => r.status)).toEqual([
      'skipped',
      'skipped',
      'skipped',
    ]);
    for (const p of payments) expect(refundsOf(emu.emulator.state, p)).toEqual(['1.00']);
  });
});
