import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ latencyMs: 50 });
  await emulatorApi(emu.url, 'POST', '/__emulator/bulk-orders', { count: 3000 });
});
afterAll(async () => {
  await emu.close();
});

it('stops a long --all on Ctrl-C with exit 130, leaving only whole NDJSON lines', async () => {
  const child = spawn(process.execPath, [BIN, 'orders', 'list', '--all', '-o', 'ndjson'], {
    env: emu.env(),
    timeout: 60_000,
    killSignal: 'SIGKILL',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  await new Promise<void>((resolve) => {
    const check = () => (stdout.split('\n').length > 40 ? resolve() : setTimeout(check, 20));
    check();
  });
  child.kill('SIGINT');
  const code = await new Promise<number | null>((r) => child.on('close', r));
  expect(code).toBe(130);
  expect(stderr).toContain('interrupted');
  const lines = stdout.split('\n');
  expect(lines.pop()).toBe('');
  expect(lines.length).toBeGreaterThan(0);
  expect(lines.length).toBeLessThan(3000);
  for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
});
