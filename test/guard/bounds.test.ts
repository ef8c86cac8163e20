// Issue 34 §4: bounds in bytes. Each "Seen" of the issue, run with a memory limit
// (NODE_OPTIONS=--max-old-space-size) so that a bound that does not hold fails by running out,
// and each must end with the documented exit code before a deadline (timeoutMs: a run killed
// there ends by a signal, which fails the test). No test times how fast: what proves the bound
// is counted (the message, the memory limit, the bytes the CLI took from its input).

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_LIMITS } from '../../src/domain/fixture-limits.js';
import { QUERY_LIMITS } from '../../src/format/query.js';
import { BATCH_INPUT_BYTES } from '../../src/ops/batch/input.js';
import { BIN, baseEnv, localEnv, runCli, tempDir } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

/** The CLI with a heap of 256 MB: the "Seen" runs took 0.5 to 1.5 GB. */
const LIMITED = { NODE_OPTIONS: '--max-old-space-size=256' };

describe('--query is bounded in bytes as what it makes grows', () => {
  const chain = (n: number) => `to_string(@)${" | join('', [@, @])".repeat(n)}`;

  it.each([19, 22])(
    'to_string(@) | join(...) chained %i times: exit 2 naming the bound before the deadline, nothing written',
    async (n) => {
      const env = baseEnv(LIMITED);
      expect((await runCli(['config', 'set', 'profile_id', '1'], { env })).code).toBe(0);
      const r = await runCli(['config', 'list', '--query', chain(n)], {
        env,
        timeoutMs: 30_000,
      });
      expect(r.signal).toBeNull();
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        new RegExp(`^error: --query stopped: what it makes passed ${QUERY_LIMITS.bytes / 1024 / 1024} MB\\n`),
      );
      expect(r.stderr).toContain('--query-max-mb');
    },
  );

  it('--query-max-mb raises the bound: 12 doublings fit in 64 MB and are written', async () => {
    const env = baseEnv();
    expect((await runCli(['config', 'set', 'profile_id', '1'], { env })).code).toBe(0);
    const small = await runCli(
      ['config', 'list', '-o', 'json', '--query-max-mb', '1', '--query', chain(12)],
      { env },
    );
    expect(small.code).toBe(2);
    const raised = await runCli(
      ['config', 'list', '-o', 'json', '--query-max-mb', '64', '--query', chain(12)],
      { env },
    );
    expect(raised.code, raised.stderr).toBe(0);
    expect(raised.stdout.length).toBeGreaterThan(1024 * 1024);
    const bad = await runCli(['config', 'list', '--query-max-mb', 'lots', '--query', '@'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--query-max-mb must be a number of megabytes');
  });
});

describe('a fixture is bounded in bytes before it is parsed, and the CLI and the emulator agree', () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: 'empty' });
  });
  afterAll(async () => {
    await emu?.close();
  });
  const apply = (file: string) =>
    runCli(['emulator', 'apply', file, '--port', new URL(emu.url).port], {
      env: baseEnv(LIMITED),
      timeoutMs: 30_000,
    });

  it('9.4 MB of JSON nested 4.7 million deep: refused by its depth while scanning, exit 2', async () => {
    const file = join(tempDir(), 'deep.json');
    writeFileSync(file, `${'['.repeat(4_700_000)}${']'.repeat(4_700_000)}`);
    const r = await apply(file);
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`nests deeper than ${FIXTURE_LIMITS.depth} levels`);
    expect(emu.emulator.state.counts()).toMatchObject({ customers: 0 });
  });

  it('a fixture of 1 to 10 MB that the CLI accepts, the emulator takes (no "request body is larger")', async () => {
    const customers: Record<string, unknown> = {};
    for (let i = 0; i < 12_000; i++)
      customers[`c${i}`] = {
        first_name: `First${i}`,
        last_name: `Last${i}`,
        email: `person${i}@example.com`,
        merchant_customer_id: `CRM-${i}-${'x'.repeat(60)}`,
      };
    const text = JSON.stringify({ customers });
    expect(Buffer.byteLength(text)).toBeGreaterThan(1024 * 1024);
    expect(Buffer.byteLength(text)).toBeLessThan(FIXTURE_LIMITS.bytes);
    const file = join(tempDir(), 'big.json');
    writeFileSync(file, text);
    const r = await apply(file);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('larger than');
    expect(emu.emulator.state.counts()).toMatchObject({ customers: 12_000 });
  }, 60_000);
});

describe('a batch input is bounded in bytes as it is read', () => {
  it('40 MB of rows on stdin: exit 2 naming the bound, the rest never read, nothing sent', async () => {
    const rows = Buffer.from(`order_id\n${'1042\n'.repeat(8_000_000)}`);
    const r = await runTakingStdin(['orders', 'pause', '--file', '-'], localEnv(LIMITED), rows);
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`stdin is larger than ${BATCH_INPUT_BYTES / 1024 / 1024} MB`);
    expect(r.stderr).toContain('nothing was sent');
    // It stopped reading at the bound: what the pipe took is the bound and at most a few pipe
    // buffers more, not the whole 40 MB.
    expect(r.taken).toBeGreaterThan(BATCH_INPUT_BYTES);
    expect(r.taken).toBeLessThan(BATCH_INPUT_BYTES + 4 * 1024 * 1024);
  });
});

/** Runs the CLI writing `input` to its stdin; with how many bytes the pipe took before it closed. */
function runTakingStdin(args: string[], env: Record<string, string | undefined>, input: Buffer) {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; taken: number }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'ignore', 'pipe'] });
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
      });
      // Written 64 KB at a time, each counted once the pipe has taken it; EPIPE once it stops
      // reading ends the writing (what the test expects).
      let taken = 0;
      let closed = false;
      child.stdin.on('error', () => {
        closed = true;
      });
      const writeFrom = (at: number): void => {
        for (let i = at; i < input.length && !closed; i += 65_536) {
          const chunk = input.subarray(i, i + 65_536);
          const more = child.stdin.write(chunk, (err) => {
            if (!err) taken += chunk.length;
          });
          if (!more) {
            child.stdin.once('drain', () => writeFrom(i + 65_536));
            return;
          }
        }
        if (!closed) child.stdin.end();
      };
      writeFrom(0);
      child.on('error', reject);
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, stderr, taken });
      });
    },
  );
}
