// Completion run for real in bash, zsh and fish: `billing completion --install` puts each
// shell's script in place, then each shell completes a partial command line with the built
// billing on PATH, and the candidates are checked.
// bash: the completion function with COMP_WORDS/COMP_CWORD, as readline calls it.
// zsh: an interactive zsh on a pseudo-terminal (zpty) with compinit; TAB is typed.
// fish: `complete -C LINE`, fish's own completion of a command line.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from '../../src/domain/orders.js';
import { OUTPUT_FORMATS } from '../../src/format/formats.js';
import { BIN, baseEnv, runCli, tempDir } from '../helpers/cli.js';
import { need } from '../helpers/needs.js';

const BASH_HARNESS = resolve(import.meta.dirname, 'bash-harness.sh');
const ZSH_HARNESS = resolve(import.meta.dirname, 'zsh-harness.zsh');

let home: string;
let work: string;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  home = tempDir('billing-home-');
  work = tempDir('billing-files-');
  for (const name of ['order.json', 'other.txt']) writeFileSync(join(work, name), '{}');
  const bin = join(home, 'bin');
  mkdirSync(bin);
  symlinkSync(BIN, join(bin, 'billing'));
  const config = join(home, 'config');
  mkdirSync(config, { mode: 0o700 });
  // A named environment beside the built-in ones, as `billing login --env staging` leaves it.
  writeFileSync(
    join(config, 'config.json'),
    JSON.stringify({ environments: { staging: { base_url: 'http://127.0.0.1:9/api/v2', kind: 'sandbox' } } }),
    { mode: 0o600 },
  );
  env = baseEnv({
    HOME: home,
    XDG_DATA_HOME: undefined,
    XDG_CONFIG_HOME: undefined,
    ZDOTDIR: undefined,
    BILLING_CONFIG_DIR: config,
    PATH: `${bin}:${dirname(process.execPath)}:${process.env.PATH}`,
  });
  for (const shell of ['bash', 'zsh', 'fish']) {
    const result = await runCli(['completion', shell, '--install'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Installed');
  }
});

const installed = () => ({
  bash: join(home, '.local/share/bash-completion/completions/billing'),
  zsh: join(home, '.zfunc/_billing'),
  fish: join(home, '.config/fish/completions/billing.fish'),
});

/** A shell run in the folder with the test files; its stdout as candidates. Killed after 30 s. */
function shell(command: string, args: string[]): string[] {
  const result = spawnSync(command, args, {
    env: env as NodeJS.ProcessEnv,
    cwd: work,
    encoding: 'utf8',
    timeout: 30_000,
  });
  // fish adds a description after a tab.
  return candidates(result.stdout.replace(/\t.*$/gm, ''));
}

const bash = (line: string) =>
  shell('bash', ['--norc', '--noprofile', BASH_HARNESS, installed().bash, ...line.split(' ')]);
// The dump compinit writes on the first run and reads on the next, made after the install.
const zsh = (line: string) =>
  shell('zsh', ['-f', ZSH_HARNESS, dirname(installed().zsh), line, join(home, '.zcompdump')]);
const fish = (line: string) =>
  shell('fish', ['--no-config', '-c', 'source $argv[1]; complete -C $argv[2]', installed().fish, line]);

function candidates(text: string): string[] {
  return [...new Set(text.split('\n').filter((l) => l.trim() !== ''))].sort();
}

/** Candidates come back sorted (see candidates()); the lists are those of src, never a copy. */
const STATUSES = [...ORDER_STATUSES].sort();
const FORMATS = [...OUTPUT_FORMATS].sort();

const CASES: [line: string, expected: string[]][] = [
  ['billing orders list --status ', STATUSES],
  ['billing orders list --status pa', ['paused']],
  ['billing -o ', FORMATS],
  ['billing orders list --output n', ['ndjson']],
  ['billing --env ', ['local', 'production', 'sandbox', 'staging']],
  ['billing completion ', ['bash', 'fish', 'zsh']],
  ['billing emulator clock ', ['advance']],
  ['billing orders subscribe --interval ', ['MONTH', 'QUARTER', 'YEAR']],
  [
    'billing webhooks listen --events order.active,order.p',
    ['order.active,order.paused', 'order.active,order.pending'],
  ],
  ['billing webhooks trigger order.c', ['order.cancelled', 'order.complete']],
  ['billing emulator start --seed ', ['demo', 'empty']],
  ['billing orders create --file o', ['order.json', 'other.txt']],
  ['billing payments li', ['list']],
  // Flags: the global ones (--query among them) after a command's arguments.
  [
    'billing orders get 12 --',
    ['--debug', '--env', '--json', '--no-color', '--output', '--profile', '--query', '--yes'],
  ],
];

for (const [shell, complete] of [
  ['bash', bash],
  ['zsh', zsh],
  ['fish', fish],
] as const) {
  // bash is everywhere the suite runs; zsh and fish are installed by npm test where it can.
  const present = shell === 'bash' ? need() : need(shell);
  describe.skipIf(present.skip)(`${shell}${present.label}`, () => {
    it('is installed by billing completion --install', () => {
      const path = installed()[shell];
      expect(existsSync(path)).toBe(true);
      expect(statSync(path).mode & 0o777).toBe(0o644);
    });

    it.each(CASES)('%s', (line, expected) => {
      const got = complete(line);
      if (line.endsWith('--')) {
        // Flags: the command's and the global ones (shells may add their own descriptions).
        for (const flag of expected) expect(got).toContain(flag);
        return;
      }
      expect(got).toEqual(expected);
    });
  });
}
