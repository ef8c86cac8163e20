// Issue 34 §2: bin/billing's V8 code cache is believed only when this user owns it and nobody
// else can write it (src/domain/trust.ts's rule), and it is keyed by the hash of the code it was
// made from. Another user plants, in a cache folder everyone can write (a shared
// XDG_CACHE_HOME), V8 code made from a same-length dist/packs/start.js (cli.js and what it imports) of their own: root's billing must not
// run it, and says once that it ignores the cache.

import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, tempDir } from '../helpers/cli.js';
import { need } from '../helpers/needs.js';
import { otherUser, runnableByOthers } from '../helpers/other-user.js';

const users = need('users');
const PLANT = join(import.meta.dirname, 'plant-cache.cjs');
/** A command that loads the bundle (help in a pipe is answered from the manifest, without it). */
const TOPIC = ['help', 'exit-codes'];

function billing(node: string, bin: string, args: string[], cacheHome: string) {
  const r = spawnSync(node, [bin, ...args], {
    env: baseEnv({ XDG_CACHE_HOME: cacheHome }),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A cache home that every user may write (as /tmp), where `user` has planted code for `bin`'s build. */
function planted(user: string, node: string, bin: string): { home: string; file: string } {
  const home = tempDir('billing-shared-cache-');
  chmodSync(home, 0o1777);
  const dist = join(dirname(bin), '..', 'dist');
  const file = execFileSync('runuser', ['-u', user, '--', node, PLANT, dist, join(home, 'billing', 'v8')], {
    encoding: 'utf8',
    timeout: 60_000,
  })
    .trim()
    .split('\n')
    .at(-1) as string;
  return { home, file };
}

describe.skipIf(users.skip)(`a code cache another user planted is never run${users.label}`, () => {
  it("root's billing --version and help exit-codes do not run another user's planted cache, and say once that it is ignored", () => {
    const user = otherUser();
    const { node, bin } = runnableByOthers();
    const { home, file } = planted(user, node, bin);
    expect(existsSync(file)).toBe(true);

    const version = billing(node, bin, ['--version'], home);
    expect(version.stdout).not.toContain('PWNED');
    expect(version.stdout).toBe(
      `${JSON.parse(readFileSync(join(dirname(bin), '..', 'package.json'), 'utf8')).version}\n`,
    );

    // A command that loads the bundle (help in a pipe is answered from the manifest).
    const help = billing(node, bin, TOPIC, home);
    expect(help.stdout).not.toContain('PWNED');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Exit codes/i);
    const warnings = help.stderr.split('\n').filter((l) => l.includes('code cache is ignored'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/belongs to another user/);
    // Nothing of root's was written into the other user's folder: the plant is as it was.
    expect(readdirSync(dirname(file))).toEqual([file.split('/').at(-1)]);
    expect(Object.keys(indexOf(file))).toEqual(['packs/start.js']);
  });

  it('the same planted code, once this user owns it and nobody else can write it, is what V8 runs (the plant is a real attack)', () => {
    const user = otherUser();
    const { node, bin } = runnableByOthers();
    const { home, file } = planted(user, node, bin);
    for (let p = file; p !== home; p = dirname(p)) {
      chownSync(p, 0, 0);
      chmodSync(p, p === file ? 0o600 : 0o700);
    }
    const help = billing(node, bin, TOPIC, home);
    expect(help.stdout).toMatch(/^PWNED: code of uid \d+ runs as uid 0/);
  });

  it('a cache folder of this user that others can write is ignored, with the chmod that fixes it', () => {
    const { node, bin } = runnableByOthers();
    const home = tempDir('billing-cache-');
    expect(billing(node, bin, TOPIC, home).code).toBe(0);
    const root = join(home, 'billing', 'v8');
    const [dir] = readdirSync(root);
    chmodSync(join(root, dir as string), 0o777);
    const help = billing(node, bin, TOPIC, home);
    expect(help.code).toBe(0);
    expect(help.stderr).toMatch(
      /code cache is ignored: .* may be written by others \(mode 0777\) \(to use it: chmod go-w /,
    );
  });
});

/** The index of the build's one cache file (bin/billing's openBook): name to [hash, offset, length]. */
function indexOf(file: string): Record<string, [string, number, number]> {
  const bytes = readFileSync(file);
  return JSON.parse(bytes.subarray(4, 4 + bytes.readUInt32LE(0)).toString('utf8'));
}

describe('the code cache is keyed by the code', () => {
  it("the build's one cache file holds each file's code under the hash the build made of the bytes of the file", () => {
    const { node, bin } = runnableByOthers();
    const home = tempDir('billing-cache-');
    expect(billing(node, bin, TOPIC, home).code).toBe(0);
    const code = JSON.parse(readFileSync(join(dirname(bin), '..', 'dist', 'code-hashes.json'), 'utf8'));
    const root = join(home, 'billing', 'v8');
    const [dir] = readdirSync(root);
    expect(readdirSync(join(root, dir as string))).toEqual(['code.cache']);
    const index = indexOf(join(root, dir as string, 'code.cache'));
    // cli.js is run from dist/packs/start.js (scripts/build.mjs PACKS): the pack is what is cached.
    expect(index['packs/start.js']?.[0]).toBe(code['packs/start.js']);
    expect(index['cli.js']).toBeUndefined();
    const start = readFileSync(join(dirname(bin), '..', 'dist', 'packs', 'start.js'));
    expect(code['packs/start.js']).toBe(createHash('sha256').update(start).digest('hex').slice(0, 32));
  });

  it('a run that loads a file the cache does not hold adds it and keeps what the cache held', () => {
    const { node, bin } = runnableByOthers();
    const home = tempDir('billing-cache-');
    expect(billing(node, bin, TOPIC, home).code).toBe(0);
    const root = join(home, 'billing', 'v8');
    const [dir] = readdirSync(root);
    const file = join(root, dir as string, 'code.cache');
    const first = Object.keys(indexOf(file));
    expect(billing(node, bin, ['config', 'path'], home).code).toBe(0);
    const second = Object.keys(indexOf(file));
    expect(second).toEqual(expect.arrayContaining(first));
    expect(second.length).toBeGreaterThan(first.length);
    // A run that compiles nothing new leaves the file as it was.
    const before = readFileSync(file);
    expect(billing(node, bin, ['config', 'path'], home).code).toBe(0);
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});
