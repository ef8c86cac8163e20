// The emulator's proof (src/domain/emulator-key.ts) and who listens on a port
// (src/domain/port-listener.ts), as pure functions and against this process's own socket.

import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { makeChallenge, proofOf, provesKey } from '../../src/domain/emulator-key.js';
import { describeListener, listenerOn } from '../../src/domain/port-listener.js';

describe('proofOf / provesKey', () => {
  const key = 'k'.repeat(43);
  const nonce = makeChallenge();

  it('holds for the key, the port and the nonce it was made for, and for nothing else', () => {
    const proof = proofOf(key, 4010, nonce);
    expect(provesKey(proof, key, 4010, nonce)).toBe(true);
    expect(provesKey(proof, key, 4011, nonce)).toBe(false);
    expect(provesKey(proof, key, 4010, makeChallenge())).toBe(false);
    expect(provesKey(proof, 'x'.repeat(43), 4010, nonce)).toBe(false);
    expect(provesKey(undefined, key, 4010, nonce)).toBe(false);
    expect(provesKey('forged', key, 4010, nonce)).toBe(false);
  });

  it('a fresh nonce each time', () => {
    expect(makeChallenge()).not.toBe(makeChallenge());
    expect(makeChallenge()).toMatch(/^[\w-]{43}$/);
  });
});

describe.skipIf(process.platform !== 'linux')('listenerOn', () => {
  it("names this process as the listener of its own server's port", async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as { port: number };
      const found = listenerOn(port);
      expect(found?.uid).toBe(process.getuid?.());
      expect(found?.pid).toBe(process.pid);
      expect(describeListener(found!)).toContain(`pid ${process.pid}`);
    } finally {
      server.close();
    }
  });
});
