// A small test app that records every request it gets, and `billing webhooks listen` run
// as a process (the built CLI) with its output collected.

import type { ChildProcess } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { startTestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';

export interface Received {
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
  path: string;
  answered: number;
}

export interface TestApp {
  url: string;
  received: Received[];
  /** Answers for the next requests, in order; then `fallback`. */
  script: number[];
  fallback: number;
  /** Milliseconds to wait before answering the next requests, in order. */
  delays: number[];
  close(): Promise<void>;
}

export async function startApp(path = '/hooks'): Promise<TestApp> {
  const app: TestApp = {
    url: '',
    received: [],
    script: [],
    fallback: 200,
    delays: [],
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answered = app.script.shift() ?? app.fallback;
      const delay = app.delays.shift() ?? 0;
      setTimeout(() => {
        app.received.push({
          headers: req.headers,
          rawHeaders: req.rawHeaders,
          body: Buffer.concat(chunks),
          path: req.url ?? '',
          answered,
        });
        res.writeHead(answered, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: answered < 300 }));
      }, delay);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  app.url = `http://127.0.0.1:${port}${path}`;
  app.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return app;
}

export interface Listener {
  /** The endpoint named on the ready line. */
  url: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout holds at least `n` lines. */
  lines(n: number, timeoutMs?: number): Promise<string[]>;
  /** Ctrl-C, then the exit code and everything printed. */
  stop(): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

export async function startListen(
  args: string[],
  env: Record<string, string | undefined>,
  /** When the listener is killed: at least as long as the test that uses it may run. */
  timeoutMs?: number,
): Promise<Listener> {
  const started = spawnCli(['webhooks', 'listen', '--port', '0', ...args], env, timeoutMs);
  const { child } = started;
  const closed = started.done.then((end) => end.code);
  const url = await waitFor(
    () => {
      const ready = /Ready: (?:paste (\S+) into|the emulator at \S+ sends order events to (\S+) )/.exec(
        started.stderr(),
      );
      return ready?.[1] ?? ready?.[2];
    },
    30_000,
    () => `listen did not get ready: ${started.stderr()}`,
    closed,
  );
  // The deliveries: with --json, after listen's first line ({"ready":true,…}, issue 37 §4).
  const stdoutLines = () =>
    started
      .stdout()
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('{"ready":true'));
  return {
    url,
    child,
    stdout: started.stdout,
    stderr: started.stderr,
    lines: (n, timeoutMs = 30_000) =>
      waitFor(
        () => (stdoutLines().length >= n ? stdoutLines() : undefined),
        timeoutMs,
        () => `expected ${n} lines on stdout, got:\n${started.stdout()}\nstderr:\n${started.stderr()}`,
      ),
    stop: async () => {
      child.kill('SIGINT');
      const code = await closed;
      return { code, stdout: started.stdout(), stderr: started.stderr() };
    },
  };
}

/** Polls until `probe` gives a value; fails with `message()` after `timeoutMs` or when `gone` settles first. */
export async function waitFor<T>(
  probe: () => T | undefined,
  timeoutMs = 30_000,
  message: () => string = () => 'timed out',
  gone?: Promise<unknown>,
): Promise<T> {
  let ended = false;
  void gone?.then(() => {
    ended = true;
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (ended || Date.now() > deadline) throw new Error(message());
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * For the tests where listen joins an emulator of the demo seed (issue 19): `setup` starts the
 * emulator and a test app, `listen` the built listen; each is stopped after the test (afterEach).
 * `events` are the events the app got, `got` waits for `n` of them, `statusOf` reads an order's
 * status through the built CLI.
 */
export function useJoinedEmulator() {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of cleanup.splice(0).reverse()) await close();
  });

  async function setup(retryDelaysMs = [20, 20, 20]) {
    const t = await startTestEmulator({ seed: 'demo', webhookRetryDelaysMs: retryDelaysMs });
    cleanup.push(() => t.close());
    const app = await startApp('/hooks');
    cleanup.push(() => app.close());
    const env = t.env();
    const port = new URL(t.url).port;
    const billing = (...args: string[]) => runCli(args, { env });
    // The same commands run in the test's process (test/helpers/in-process.ts), for a test whose
    // fact is listen's, not the process of the command that sets it up.
    const here = (...args: string[]) => runInProcess(args, { env });
    return { t, app, env, port, billing, here };
  }

  async function listen(args: string[], env: Record<string, string | undefined>): Promise<Listener> {
    const l = await startListen(args, env);
    cleanup.push(async () => {
      if (l.child.exitCode === null) await l.stop();
    });
    return l;
  }

  const events = (app: TestApp) =>
    app.received.map((r) => JSON.parse(r.body.toString('utf8')).event as string);
  const got = (app: TestApp, n: number) =>
    waitFor(
      () => (app.received.length >= n ? app.received : undefined),
      10_000,
      () => `app got ${events(app).join(', ')}`,
    );

  async function statusOf(billing: (...a: string[]) => ReturnType<typeof runCli>, id: number) {
    const res = await billing('orders', 'get', String(id), '-o', 'json');
    expect(res.code, res.stderr).toBe(0);
    return JSON.parse(res.stdout).status.value as string;
  }

  return { setup, listen, events, got, statusOf };
}
