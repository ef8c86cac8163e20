// Issue 36 §3: what Linux can run of what macOS and Windows give billing — paths with spaces
// and non-ASCII letters, CRLF line endings in input files, a `\` in a --file path, no HOME but
// USERPROFILE/APPDATA, a terminal without colour or width — through the built billing against
// the emulator; and the config folder of each platform (a pure function, given the platform).

import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfigDir } from '../../src/config/store.js';
import { EXIT } from '../../src/errors.js';
import { baseEnv, parseNdjson, runCli, tempDir } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';
import { runOnPty } from '../helpers/pty.js';

let emu: TestEmulator;
let subscriptions: number[] = [];

// The setup's list, the status read back, the `config path` after the set and the second run of
// each CRLF case: main() in the worker. Each behaviour's first run stays the built CLI's; what
// rests on the process's own home, working folder or terminal stays the process.
const here = (args: string[], env = emu.env()) => runInProcess(args, { env });

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
  const active = await here(['orders', 'list', '--status', 'active', '--all', '-o', 'ndjson']);
  subscriptions = (parseNdjson(active.stdout) as { id: number; order_type: { value: string } }[])
    .filter((o) => o.order_type.value === 'subscription')
    .map((o) => o.id);
});
afterAll(async () => {
  await emu?.close();
});

async function statusOf(id: number): Promise<string> {
  const r = await here(['orders', 'get', String(id), '-o', 'json']);
  return JSON.parse(r.stdout).status.value;
}

describe('paths with spaces and non-ASCII letters', () => {
  it('the config and state folders, the --file and the --journal all live under "Mes données/Zoë Ünal"', async () => {
    const base = join(tempDir('billing-paths-'), 'Mes données', 'Zoë Ünal');
    mkdirSync(base, { recursive: true });
    const env = emu.env({ BILLING_CONFIG_DIR: join(base, 'config'), BILLING_STATE_DIR: join(base, 'état') });
    const set = await runCli(['config', 'set', 'profile_id', '1', '--env', 'local'], { env });
    expect(set.code, set.stderr).toBe(0);
    const path = await here(['config', 'path'], env);
    expect(path.stdout.trim()).toBe(join(base, 'config', 'config.json'));
    expect(statSync(join(base, 'config', 'config.json')).mode & 0o777).toBe(0o600);

    const rows = join(base, 'commandes à suspendre.csv');
    writeFileSync(rows, `id\n${subscriptions[0]}\n`);
    const journal = join(base, 'journal été.journal');
    const r = await runCli(['orders', 'pause', '--file', rows, '--journal', journal, '-o', 'ndjson'], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(journal);
    expect(readFileSync(journal, 'utf8')).toContain(String(subscriptions[0]));
    expect(await statusOf(subscriptions[0]!)).toBe('paused');
  });
});

describe('CRLF line endings (a file saved on Windows)', () => {
  it('a CSV --file: every id is read without its \\r, and each order is sent once', async () => {
    const dir = tempDir('billing-crlf-');
    const rows = join(dir, 'rows.csv');
    writeFileSync(rows, `id\r\n${subscriptions[1]}\r\n${subscriptions[2]}\r\n`);
    const dry = await runCli(['orders', 'pause', '--file', rows, '--dry-run'], { env: emu.env() });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toBe(
      `POST /api/v2/profiles/1/orders/${subscriptions[1]}/pause\nPOST /api/v2/profiles/1/orders/${subscriptions[2]}/pause\n`,
    );
    const run = await here(
      ['orders', 'pause', '--file', rows, '-o', 'ndjson'],
      emu.env({ BILLING_STATE_DIR: dir }),
    );
    expect(run.code, run.stderr).toBe(0);
    expect((parseNdjson(run.stdout) as { status: string }[]).map((x) => x.status)).toEqual([
      'paused',
      'paused',
    ]);
  });

  it('an NDJSON --file with CRLF lines is read as the same rows', async () => {
    const rows = join(tempDir('billing-crlf-'), 'rows.ndjson');
    writeFileSync(rows, `{"id":${subscriptions[3]}}\r\n{"id":${subscriptions[4]}}\r\n`);
    const dry = await here(['orders', 'pause', '--file', rows, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.split('\n').filter(Boolean)).toEqual([
      `POST /api/v2/profiles/1/orders/${subscriptions[3]}/pause`,
      `POST /api/v2/profiles/1/orders/${subscriptions[4]}/pause`,
    ]);
  });
});

describe('a `\\` in a --file path, as Windows gives it', () => {
  it('C:\\Users\\Anna\\rows.csv is one file name here: not found, exit 2, one line naming it, nothing sent', async () => {
    const r = await runCli(['orders', 'pause', '--file', 'C:\\Users\\Anna\\rows.csv'], { env: emu.env() });
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('C:\\Users\\Anna\\rows.csv');
    expect(r.stderr.trim().split('\n')[0]).toMatch(/^error: cannot read .*: no such file$/);
    expect(r.stdout).toBe('');
  });

  it('a file whose name holds a `\\` (legal on Linux and macOS) is read by that name', async () => {
    const cwd = tempDir('billing-backslash-');
    writeFileSync(join(cwd, 'in\\rows.csv'), `id\n${subscriptions[5]}\n`);
    const r = await runCli(['orders', 'pause', '--file', 'in\\rows.csv', '--dry-run'], {
      env: emu.env(),
      cwd,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`POST /api/v2/profiles/1/orders/${subscriptions[5]}/pause\n`);
  });
});

describe('no HOME, but USERPROFILE and APPDATA (a Windows-shaped environment)', () => {
  const windowsShaped = () => ({
    ...baseEnv(),
    HOME: undefined,
    XDG_CONFIG_HOME: undefined,
    XDG_CACHE_HOME: undefined,
    BILLING_CONFIG_DIR: undefined,
    USERPROFILE: 'C:\\Users\\Anna',
    APPDATA: 'C:\\Users\\Anna\\AppData\\Roaming',
    LOCALAPPDATA: 'C:\\Users\\Anna\\AppData\\Local',
  });

  it('the config is where the account says home is (absolute), and nothing is written in the working folder', async () => {
    const cwd = tempDir('billing-nohome-');
    const path = await runCli(['config', 'path'], { env: windowsShaped(), cwd });
    expect(path.code, path.stderr).toBe(0);
    expect(path.stdout.trim()).toBe(join(homedir(), '.config', 'billing', 'config.json'));
    // Before: the code cache went to a folder named "C:\Users\Anna" under the working folder.
    const version = await runCli(['--version'], { env: windowsShaped(), cwd });
    expect(version.code).toBe(0);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('each platform has its own config folder: APPDATA on Windows, Library/Preferences on macOS, XDG on Linux', () => {
    const env = { APPDATA: 'C:\\Users\\Anna\\AppData\\Roaming' };
    expect(defaultConfigDir(env, 'win32', 'C:\\Users\\Anna')).toBe(
      'C:\\Users\\Anna\\AppData\\Roaming\\billing\\Config',
    );
    expect(defaultConfigDir({}, 'win32', 'C:\\Users\\Anna')).toBe(
      'C:\\Users\\Anna\\AppData\\Roaming\\billing\\Config',
    );
    expect(defaultConfigDir({}, 'darwin', '/Users/anna')).toBe('/Users/anna/Library/Preferences/billing');
    expect(defaultConfigDir({}, 'linux', '/home/anna')).toBe('/home/anna/.config/billing');
    expect(defaultConfigDir({ XDG_CONFIG_HOME: '/xdg' }, 'linux', '/home/anna')).toBe('/xdg/billing');
  });
});

describe('a terminal without colour or width (TERM=dumb, 0 columns: a serial console, a CI log)', () => {
  it('orders list: no escape sequence, and no line wider than the 80 columns assumed', async () => {
    const term = runOnPty(['orders', 'list', '--items', '5'], {
      env: emu.env({ TERM: 'dumb' }),
      cols: 0,
      rows: 0,
    });
    const r = await term.exited;
    expect(r.code, r.text).toBe(0);
    expect(r.raw).not.toContain('\x1b');
    const lines = r.text.split(/\r?\n/).filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(6);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
  });
});
