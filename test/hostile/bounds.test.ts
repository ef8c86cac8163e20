// Issue 26 §5: hostile input is bounded, with a clear error. A YAML fixture of nested aliases
// is refused before anything writes it out; a --query that doubles its list stops at a stated
// bound; the token and URL credentials a service echoes back are masked on stdout too.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_LIMITS } from '../../src/domain/fixture-file.js';
import { startEmulator } from '../../src/emulator/program.js';
import { QUERY_LIMITS } from '../../src/format/query.js';
import { baseEnv, runCli, tempDir } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { hostileServices, send, TOKEN } from './service.js';

const serve = hostileServices();

/** 30 levels of 9 aliases of the level below: 1.6 KB of YAML, 9^30 values written out. */
function aliasBomb(): string {
  const lines = ['lol0: &lol0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
  for (let i = 1; i < 30; i++)
    lines.push(
      `lol${i}: &lol${i} [${Array(9)
        .fill(`*lol${i - 1}`)
        .join(', ')}]`,
    );
  lines.push('customers: {}');
  return `${lines.join('\n')}\n`;
}

describe('a fixture is refused before it is written out when it would be too big', () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: 'empty' });
  });
  afterAll(async () => {
    await emu?.close();
  });

  const fixtures: [string, string, RegExp][] = [
    [
      'nested aliases (an alias bomb)',
      aliasBomb(),
      /holds more than 1,000,000 values once its aliases are written out: a fixture may hold at most 1,000,000/,
    ],
    [
      'more aliases than the limit',
      `a: &a [1]\nb: [${Array(FIXTURE_LIMITS.aliases + 1)
        .fill('*a')
        .join(', ')}]\n`,
      /has more than 1000 YAML aliases: a fixture may use at most 1000/,
    ],
    [
      'nesting deeper than the limit',
      `a: ${'['.repeat(FIXTURE_LIMITS.depth + 2)}${']'.repeat(FIXTURE_LIMITS.depth + 2)}\n`,
      /nests deeper than 64 levels: a fixture may nest at most 64/,
    ],
  ];
  for (const [what, text, message] of fixtures) {
    it(`emulator apply: ${what} is exit 2 naming the limit; the emulator is untouched and still answers`, async () => {
      const file = join(tempDir(), 'bomb.yaml');
      writeFileSync(file, text);
      const port = new URL(emu.url).port;
      const r = await runCli(['emulator', 'apply', file, '--port', port], {
        env: baseEnv(),
        timeoutMs: 20_000,
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain('no emulator answers');
      expect(r.stderr.trim().split('\n')[0]).toMatch(/^error: /);
      expect(emu.emulator.state.counts()).toMatchObject({ customers: 0 });
      const status = await runCli(['emulator', 'status', '--port', port, '--json'], { env: baseEnv() });
      expect(status.code, status.stderr).toBe(0);
    });
  }

  it('a fixture file larger than the limit is refused by its size, unread', async () => {
    const file = join(tempDir(), 'big.json');
    writeFileSync(file, `{"customers": {}, "pad": "${'x'.repeat(FIXTURE_LIMITS.bytes)}"}`);
    const r = await runCli(['emulator', 'apply', file, '--port', new URL(emu.url).port], { env: baseEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is 10\.0 MB: a fixture may be at most 10 MB/);
  });

  it("billing/emulator's startEmulator({ fixture: FILE }) refuses the same file with the same message", async () => {
    const file = join(tempDir(), 'bomb.yaml');
    writeFileSync(file, aliasBomb());
    await expect(startEmulator({ port: 0, fixture: file })).rejects.toThrow(
      /a fixture may hold at most 1,000,000/,
    );
  });
});

describe('--query is bounded in its work and its result', () => {
  const doubling = '[@,@][]'.repeat(27);
  it(`${doubling.slice(0, 21)}… (27 doublings) stops with exit 2 and one line`, async () => {
    const env = baseEnv();
    expect((await runCli(['config', 'set', 'profile_id', '1'], { env })).code).toBe(0);
    for (const format of ['json', 'table']) {
      const r = await runCli(['config', 'list', '-o', format, '--query', doubling], {
        env,
        timeoutMs: 60_000,
      });
      expect(r.code, r.stderr).toBe(2);
      expect(r.signal).toBeNull();
      expect(r.stdout + r.stderr).toContain(
        `--query stopped: it took more than ${QUERY_LIMITS.work.toLocaleString('en')} steps`,
      );
    }
  }, 120_000);

  it('a result that shares its lists (40 nested [@,@]) is refused by its size written out', async () => {
    const env = baseEnv();
    const r = await runCli(['config', 'list', '--query', `${'[@,@].'.repeat(40)}[@,@]`], {
      env,
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --query stopped: its result holds more than 5,000,000 values\n/);
  }, 120_000);

  it('an ordinary query is not affected', async () => {
    const r = await runCli(['config', 'list', '-o', 'json', '--query', 'length([].name)'], {
      env: baseEnv(),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(Number(r.stdout)).toBeGreaterThanOrEqual(0);
  });
});

describe('what a service sends back is masked on stdout as on stderr', () => {
  const echoing = () =>
    serve((req, res) =>
      send(res, 200, {
        echoed: `Bearer ${TOKEN}`,
        authorization: req.headers.authorization,
        callback: 'https://merchant:hunter22@hooks.example.com/in',
        email: 'ada@example.com',
      }),
    );

  it('billing api in a pipe, with -o json and with -o table: no token, no URL password', async () => {
    const h = await echoing();
    for (const extra of [[], ['-o', 'json'], ['-o', 'ndjson'], ['-o', 'table']]) {
      const r = await h.cli(['api', '/orders', ...extra]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toContain(TOKEN);
      expect(r.stdout).not.toContain('hunter22');
      expect(r.stdout).toContain('***');
      // The rest of the answer as it came, and still JSON where JSON was asked for.
      expect(r.stdout).toContain('hooks.example.com/in');
      expect(r.stdout).toContain('ada@example.com');
      if (extra[1] !== 'table') {
        expect(JSON.parse(r.stdout)).toMatchObject({
          echoed: 'Bearer ***',
          callback: 'https://***@hooks.example.com/in',
          email: 'ada@example.com',
        });
      }
    }
  });
});
