// Issue 34 §4, billing mcp on stdio: an oversized or unparsable line is answered with a JSON-RPC
// error and the server goes on; it stops reading while its answers are unread (20,000 pipelined
// calls leave it flat); an argument is never echoed beyond a few hundred bytes.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { STDIO_LIMITS } from '../../src/mcp/stdio.js';
import { BIN } from '../helpers/cli.js';
import { useEmulator } from '../helpers/suite.js';

const emu = useEmulator({ seed: 'demo' });
let child: ChildProcessWithoutNullStreams | undefined;
afterEach(() => {
  child?.kill();
  child = undefined;
});

/** `billing mcp` as a raw process: lines in, answers (by id) out. */
function server() {
  const proc = spawn(process.execPath, [BIN, 'mcp'], {
    env: emu.env({ NODE_OPTIONS: '--max-old-space-size=128' }) as NodeJS.ProcessEnv,
    timeout: 120_000,
  });
  child = proc;
  const answers: Record<string, unknown>[] = [];
  let rest = '';
  const read = () =>
    proc.stdout.on('data', (d: Buffer) => {
      const lines = (rest + d.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line) answers.push(JSON.parse(line));
    });
  const send = (message: unknown) => proc.stdin.write(`${JSON.stringify(message)}\n`);
  const until = async (check: () => boolean, ms = 30_000) => {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error(`timed out; ${answers.length} answers`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const init = async () => {
    send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    await until(() => answers.some((a) => a.id === 'init'));
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  };
  return { proc, answers, read, send, until, init };
}

const rss = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;

describe('billing mcp stdio: bounded lines, backpressure, no echo', () => {
  it('a line over the bound and a line that is not JSON each get a JSON-RPC error, and the server goes on', async () => {
    const s = server();
    s.read();
    await s.init();
    s.proc.stdin.write(
      `{"jsonrpc":"2.0","id":"big","method":"ping","params":{"pad":"${'x'.repeat(STDIO_LIMITS.lineBytes + 10)}"}}\n`,
    );
    s.proc.stdin.write('this is not json\n');
    s.send({ jsonrpc: '2.0', id: 'after', method: 'tools/list' });
    await s.until(() => s.answers.some((a) => a.id === 'after'));
    const errors = s.answers.filter((a) => a.error) as {
      id: unknown;
      error: { code: number; message: string };
    }[];
    expect(errors.map((e) => e.error.code).sort()).toEqual([-32600, -32700]);
    for (const e of errors) expect(e.error.message.length).toBeLessThan(200);
    expect(s.proc.exitCode).toBeNull();
    const listed = s.answers.find((a) => a.id === 'after') as { result: { tools: unknown[] } };
    expect(listed.result.tools.length).toBeGreaterThan(3);
  });

  it('20,000 pipelined calls left unread: it stops reading, stays small, then answers every one', async () => {
    const s = server();
    s.read();
    await s.init();
    s.proc.stdout.pause();
    s.proc.stdout.removeAllListeners('data');
    const calls = 20_000;
    const payload = Array.from(
      { length: calls },
      (_, i) => `${JSON.stringify({ jsonrpc: '2.0', id: i, method: 'ping' })}\n`,
    ).join('');
    s.proc.stdin.write(payload);
    await new Promise((r) => setTimeout(r, 3_000));
    // What we wrote and it has not read is still ours: it stopped reading while its answers wait.
    expect(s.proc.stdin.writableLength).toBeGreaterThan(payload.length / 2);
    expect(rss(s.proc.pid as number)).toBeLessThan(200 * 1024 * 1024);
    s.read();
    s.proc.stdout.resume();
    await s.until(() => s.answers.filter((a) => typeof a.id === 'number').length === calls, 60_000);
    expect(s.proc.exitCode).toBeNull();
  }, 90_000);

  it('an 8 MB invoice id is refused by its length, not echoed', async () => {
    const s = server();
    s.read();
    await s.init();
    const invoice = `INV-${'9'.repeat(8 * 1024 * 1024)}`;
    s.send({
      jsonrpc: '2.0',
      id: 'get',
      method: 'tools/call',
      params: { name: 'get_order', arguments: { order: invoice } },
    });
    s.send({
      jsonrpc: '2.0',
      id: 'small',
      method: 'tools/call',
      params: { name: 'get_order', arguments: { order: `INV-${'9'.repeat(1000)}` } },
    });
    // The 8 MB line is past the line bound: answered by a JSON-RPC error that cannot know its id.
    await s.until(() => s.answers.some((a) => a.id === 'small') && s.answers.some((a) => a.id === null));
    expect(s.answers).toHaveLength(3);
    for (const answer of s.answers) {
      const text = JSON.stringify(answer);
      expect(text.length, text.slice(0, 300)).toBeLessThan(2_000);
      expect(text).not.toContain('9'.repeat(300));
    }
    expect(JSON.stringify(s.answers.find((a) => a.id === 'small'))).toContain('at most 256');
  }, 60_000);
});
