// The one rule of who a file is believed from (src/domain/trust.ts), as a pure function of its
// owner and mode; the callers' refusals are tested end to end where each file is used.
import { describe, expect, it } from 'vitest';
import { distrustOf } from '../../src/domain/trust.js';

const file = (uid: number, mode: number) => ({
  uid,
  mode: 0o100000 | mode,
  isFile: () => true,
  isDirectory: () => false,
  isSymbolicLink: () => false,
});
const dir = (uid: number, mode: number) => ({
  ...file(uid, mode),
  isFile: () => false,
  isDirectory: () => true,
});

describe('distrustOf', () => {
  it('trusts a file of the user running that nobody else can write', () => {
    expect(distrustOf('/c', file(1000, 0o644), { kind: 'file' }, 1000)).toBeUndefined();
    expect(distrustOf('/d', dir(1000, 0o755), { kind: 'directory' }, 1000)).toBeUndefined();
  });
  it('refuses what another user owns, root included, and says how to fix it', () => {
    const d = distrustOf('/c', file(65534, 0o600), { kind: 'file' }, 0);
    expect(d?.why).toBe('belongs to another user (uid 65534, you are 0)');
    expect(d?.fix).toBe('chown root /c');
  });
  it('refuses what others can write, and a secret others can read', () => {
    expect(distrustOf('/c', file(5, 0o666), { kind: 'file' }, 5)?.fix).toBe('chmod go-w /c');
    expect(distrustOf('/s', file(5, 0o640), { kind: 'file', secret: true }, 5)?.fix).toBe('chmod 600 /s');
    expect(distrustOf('/s', file(5, 0o640), { kind: 'file' }, 5)).toBeUndefined();
  });
  it('refuses the wrong kind of thing, and skips owners where the platform has none', () => {
    expect(distrustOf('/d', file(5, 0o600), { kind: 'directory' }, 5)?.why).toBe('is not a directory');
    expect(distrustOf('/c', file(7, 0o666), { kind: 'file' }, undefined)).toBeUndefined();
  });
  it('quotes a path a shell would split', () => {
    expect(distrustOf("/a b/it's", file(5, 0o666), { kind: 'file' }, 5)?.fix).toBe(
      `chmod go-w '/a b/it'\\''s'`,
    );
  });
});
