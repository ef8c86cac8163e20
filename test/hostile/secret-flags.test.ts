// Issue 26 §2: signing secrets never on the command line. Another local user reads every
// process's argv (/proc/PID/cmdline, ps): a secret given as a flag value is refused with the
// ways to give it; a secret file others can read is refused; a detached emulator gets its
// secret down a pipe, never in its argv or environment.

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/webhooks/signature.js';
import { baseEnv, freePort, runCli, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { need } from '../helpers/needs.js';
import { otherUser } from '../helpers/other-user.js';

const users = need('users');

const SECRET = 'whsec_kept_off_argv_7Qp2';

describe('a signing secret given as a flag value is refused with one line saying how to give it', () => {
  const cases: [string, string[]][] = [
    ['webhooks listen', ['webhooks', 'listen', '--port', '0', '--secret', SECRET]],
    [
      'webhooks trigger',
      ['webhooks', 'trigger', 'order.test', '--to', 'http://127.0.0.1:9/x', '--secret', SECRET],
    ],
    [
      'webhooks replay',
      ['webhooks', 'replay', 'none.ndjson', '--to', 'http://127.0.0.1:9/x', '--secret', SECRET],
    ],
    ['webhooks sign', ['webhooks', 'sign', '--secret', SECRET, '--file', '/dev/null']],
    [
      'webhooks verify',
      ['webhooks', 'verify', '--secret', SECRET, '--header', 't=1,v1=00', '--file', '/dev/null'],
    ],
  ];
  // listen's is the process; the other commands' refusals, made by the same option before
  // anything runs, run main() in the worker.
  for (const [name, args] of cases) {
    it(`${name} --secret S: exit 2, nothing done, the secret not echoed`, async () => {
      const r =
        name === 'webhooks listen'
          ? await runCli(args, { env: baseEnv(), timeoutMs: 15_000 })
          : await runInProcess(args, { env: baseEnv() });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^error: --secret takes no value on the command line: other users can read it in ps\n/,
      );
      expect(r.stderr).toContain('--secret-file FILE');
      expect(r.stderr).toContain('BILLING_WEBHOOK_SECRET');
      expect(r.stderr).not.toContain(SECRET);
      expect(r.stderr).not.toContain('Listening');
    });
  }

  it('emulator start --webhook-secret S: exit 2, nothing started', async () => {
    const port = String(await freePort());
    const r = await runCli(['emulator', 'start', '--port', port, '--webhook-secret', SECRET], {
      env: baseEnv(),
      timeoutMs: 15_000,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --webhook-secret takes no value on the command line/);
    expect(r.stderr).toContain('--webhook-secret-file FILE');
    const none = await fetch(`http://127.0.0.1:${port}/__emulator/status`).catch(() => undefined);
    expect(none).toBeUndefined();
  });

  it('the help shows only the safe forms', async () => {
    for (const group of [
      ['webhooks', 'listen'],
      ['webhooks', 'trigger'],
      ['webhooks', 'verify'],
      ['emulator', 'start'],
    ]) {
      const args = [...group, '--help'];
      const help = group[1] === 'listen' ? await runCli(args) : await runInProcess(args);
      expect(help.stdout).not.toMatch(/--secret [<"$]|--webhook-secret </);
      expect(help.stdout).toMatch(/--(webhook-)?secret-file/);
    }
  });
});

describe('--secret-file: readable only by its owner, or stdin', () => {
  it('refuses a file others can read (exit 12, the mode and chmod said: issue 34 §2); 0600 and "-" sign alike', async () => {
    const dir = tempDir();
    const file = join(dir, 'secret.txt');
    writeFileSync(file, `${SECRET}\n`, { mode: 0o644 });
    const sign = (args: string[], input?: string) =>
      runCli(['webhooks', 'sign', '--file', '/dev/null', '--timestamp', '1700000000', ...args], {
        env: baseEnv(),
        ...(input === undefined ? {} : { input }),
      });
    const open = await sign(['--secret-file', file]);
    expect(open.code).toBe(12);
    expect(open.stderr).toContain(`--secret-file ${file} may be read or written by others (mode 0644)`);
    expect(open.stderr).toContain(`chmod 600 ${file}`);
    expect(open.stdout).toBe('');
    execFileSync('chmod', ['600', file], { timeout: 10_000 });
    // The signatures compared with the piped one, and the refusal of stdin twice, run main() here.
    const own = await runInProcess(
      ['webhooks', 'sign', '--file', '/dev/null', '--timestamp', '1700000000', '--secret-file', file],
      { env: baseEnv() },
    );
    expect(own.code, own.stderr).toBe(0);
    const piped = await sign(['--secret-file', '-'], `${SECRET}\n`);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toBe(own.stdout);
    const viaEnv = await runInProcess(
      ['webhooks', 'sign', '--file', '/dev/null', '--timestamp', '1700000000'],
      {
        env: baseEnv({ BILLING_WEBHOOK_SECRET: SECRET }),
      },
    );
    expect(viaEnv.stdout).toBe(own.stdout);
    // stdin cannot carry both.
    const both = await runInProcess(['webhooks', 'sign', '--secret-file', '-'], {
      env: baseEnv(),
      input: SECRET,
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('stdin can carry the secret or the body, not both');
  });
});

describe.skipIf(users.skip)(
  `a detached emulator never carries its secret where another user can read it${users.label}`,
  () => {
    it('another user reads its cmdline: no secret; its environment has none either', async () => {
      const dir = tempDir();
      const file = join(dir, 'secret.txt');
      writeFileSync(file, `${SECRET}\n`, { mode: 0o600 });
      const env = baseEnv({ BILLING_WEBHOOK_SECRET: SECRET });
      const port = String(await freePort());
      const got: { body: string; signature: string }[] = [];
      const app = createServer((req, res) => {
        let body = '';
        req.setEncoding('utf8').on('data', (d: string) => {
          body += d;
        });
        req.on('end', () => {
          got.push({ body, signature: String(req.headers['x-service-signature']) });
          res.end('{}');
        });
      });
      await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
      const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/hooks`;
      const started = await runCli(
        [
          'emulator',
          'start',
          '--detach',
          '--port',
          port,
          '--webhook-url',
          appUrl,
          '--webhook-secret-file',
          file,
        ],
        { env, timeoutMs: 30_000 },
      );
      expect(started.code, started.stderr).toBe(0);
      const pid = /pid (\d+)/.exec(started.stderr)?.[1];
      expect(pid).toBeDefined();
      try {
        // As another user (made with useradd): what any local user sees of the process.
        const cmdline = execFileSync('runuser', ['-u', otherUser(), '--', 'cat', `/proc/${pid}/cmdline`], {
          timeout: 10_000,
        }).toString();
        expect(cmdline).toContain('emulator\0start');
        expect(cmdline).not.toContain(SECRET);
        expect(readFileSync(`/proc/${pid}/environ`, 'latin1')).not.toContain(SECRET);
        // And it signs with the secret it was given down the pipe.
        const sent = await runCli(['emulator', 'send-test-event', '--port', port], { env });
        expect(sent.code, sent.stderr).toBe(0);
        expect(got).toHaveLength(1);
        expect(verifySignature(got[0]!.body, got[0]!.signature, SECRET).ok).toBe(true);
      } finally {
        await runCli(['emulator', 'stop', '--port', port, '--yes'], { env });
        app.closeAllConnections();
        app.close();
      }
    });
  },
);
