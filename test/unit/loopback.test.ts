import { BlockList } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, namesThisMachine } from '../../src/domain/hosts.js';

// Node's own address matcher is the oracle for literals: 127.0.0.0/8, ::1, ::ffff:127.0.0.0/104.
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');
loopback.addSubnet('::ffff:7f00:0', 104, 'ipv6');

/** The spelling a URL gives the host (brackets, hex groups): what the config's callers pass. */
const urlHost = (host: string) => new URL(`http://${host.includes(':') ? `[${host}]` : host}/`).hostname;

describe('isLoopbackHost: the one answer to "is this host this machine"', () => {
  it('IPv4: exactly 127.0.0.0/8, as written and as a URL spells it', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        const expected = ip.startsWith('127.');
        expect(isLoopbackHost(ip)).toBe(expected);
        expect(isLoopbackHost(urlHost(ip))).toBe(expected);
      }),
    );
  });

  it('IPv6 (any spelling, brackets, case): ::1 and IPv4-mapped 127/8 only', () => {
    const mapped = fc.ipV4().map((ip) => `::ffff:${ip}`);
    const near = fc.constantFrom(
      '::1',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::2',
      '::',
      '1::1',
    );
    fc.assert(
      fc.property(fc.oneof(fc.ipV6(), mapped, near), fc.boolean(), fc.boolean(), (ip, bracket, upper) => {
        const expected = loopback.check(ip, 'ipv6');
        let written = bracket ? `[${ip}]` : ip;
        if (upper) written = written.toUpperCase();
        expect(isLoopbackHost(written)).toBe(expected);
        expect(isLoopbackHost(urlHost(ip))).toBe(expected);
      }),
    );
  });

  it('names: localhost; *.localhost and trailing dots only where a browser resolves the name', () => {
    for (const host of ['localhost', 'LocalHost', '[localhost]']) {
      expect(isLoopbackHost(host)).toBe(true);
      expect(isLoopbackHost(host, 'browser')).toBe(true);
    }
    // getaddrinfo may ask the network's DNS for these, which can answer with any address.
    for (const host of ['localhost.', 'app.localhost', 'a.b.localhost.', 'APP.LOCALHOST']) {
      expect(isLoopbackHost(host)).toBe(false);
      expect(isLoopbackHost(host, 'browser')).toBe(true);
    }
  });

  it('never calls loopback a host that is not', () => {
    const names = [
      'localhost.evil.example',
      'evillocalhost',
      'localhost..',
      '.localhost',
      'a..localhost',
      'localhost:4010',
      '127.0.0.1.evil.example',
      '127.0.0.1.',
      '127.0.0.256',
      '127.0.0',
      '127.1',
      '0177.0.0.1',
      '127.00.0.1',
      '::ffff:128.0.0.1',
      '::ffff:127.0.0.1.5',
      '::1%lo',
      '::1::',
      '1:2:3:4:5:6:7:8:9',
      '[::1',
      '',
      '0.0.0.0',
      '::',
    ];
    for (const host of names) {
      expect(isLoopbackHost(host), host).toBe(false);
      expect(isLoopbackHost(host, 'browser'), host).toBe(false);
    }
    fc.assert(
      fc.property(fc.domain(), (name) => {
        const expected = /(^|\.)localhost\.?$/.test(name.toLowerCase());
        expect(isLoopbackHost(name)).toBe(name.toLowerCase() === 'localhost');
        expect(isLoopbackHost(name, 'browser')).toBe(expected);
      }),
    );
  });

  it("a server's Host check accepts the browser's names of this machine and refuses others", () => {
    expect(namesThisMachine('app.localhost:4010', '127.0.0.1')).toBe(true);
    expect(namesThisMachine('[::ffff:127.0.0.1]:4010', '127.0.0.1')).toBe(true);
    expect(namesThisMachine('attacker.example:4010', '127.0.0.1')).toBe(false);
  });
});
