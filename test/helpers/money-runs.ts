// Helpers of the money and safety tests (issue 35 §5, round 4): a refunds file read in this
// process; a CLI whose clocks run fast, so that a settle window passes without the test
// waiting it out; and a service double that holds every refund until the test lets it go, so
// that "a run is still sending" is a fact the test waits for, not a guess at how long a start
// takes on a loaded machine.

import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { Readable } from 'node:stream';
import { expect } from 'vitest';
import { BillingError } from '../../src/errors.js';
import { type RefundInput, readRefundInput } from '../../src/ops/refunds/input.js';
import { Runtime } from '../../src/ops/runtime/runtime.js';
import { BIN } from './cli.js';
import { emulatorApi } from './emulator.js';
import { need } from './needs.js';

/**
 * `text` read as `payments refund --file -` reads its stdin, in this process
 * (src/ops/refunds/input.ts, the first thing the command does, before any journal or request):
 * the rows, or the error that refuses the whole file.
 */
export async function readRefundsIn(text: string): Promise<RefundInput | BillingError> {
  const io = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: Readable.from([text]) as unknown as NodeJS.ReadStream,
    stdinIsTTY: false,
  };
  const rt = new Runtime(io, {}, {}, new AbortController().signal);
  try {
    return await readRefundInput(rt, '-');
  } catch (err) {
    if (err instanceof BillingError) return err;
    throw err;
  }
}

/** How much faster than the real one the clock of a `fastClock` CLI runs. */
export const FAST = 10;

/**
 * The command that runs the built CLI with its clocks (the wall clock and the monotonic one
 * every settle window is measured on) running FAST times as fast: libfaketime, the program the
 * day-cap tests already run a server under (test/money/mcp-cap-day.test.ts). Without faketime on
 * the machine, the CLI as it is: the test then waits the real window, as before.
 */
export function fastClock(): string[] {
  return need('faketime').skip
    ? [process.execPath, BIN]
    : ['faketime', '-f', `+0 x${FAST}`, process.execPath, BIN];
}

/** A double in front of the emulator that holds each refund (POST …/refund) until `release()`. */
export interface HeldRefunds {
  /** The double's address: point BILLING_BASE_URL at `${url}/api/v2`. */
  url: string;
  /** Refunds that reached the double so far (held or let go). */
  arrived(): number;
  /** Lets every held refund go on to the emulator, and every later one at once. */
  release(): void;
  close(): Promise<void>;
}

export async function holdRefunds(emulatorUrl: string): Promise<HeldRefunds> {
  const target = new URL(emulatorUrl);
  let arrived = 0;
  let held: (() => void)[] | undefined = [];
  const pass = (req: IncomingMessage, body: Buffer, res: import('node:http').ServerResponse) => {
    const out = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    out.end(body);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && /\/refund$/.test(req.url ?? '')) {
        arrived += 1;
        if (held) {
          held.push(() => pass(req, body, res));
          return;
        }
      }
      pass(req, body, res);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    arrived: () => arrived,
    release: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const go of waiting) go();
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * Resolves once the service's reads show each of these records (GET of the record: 404 while a
 * `late` fault hides it), asking again every `everyMs`: a wait for the records, not a guess at a time.
 */
export async function recordsShown(emulatorUrl: string, ids: number[], everyMs: number): Promise<void> {
  for (const id of ids) {
    for (;;) {
      const res = await emulatorApi(emulatorUrl, 'GET', `/api/v2/profiles/1/payments/${id}`);
      if (res.status === 200) break;
      expect(res.status).toBe(404);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }
}

/** The clock of this process moved ahead by the test (`clockAhead`). */
export interface ClockAhead {
  /** Moves Date.now() of this process `ms` further ahead of the real clock. */
  advance(ms: number): void;
  /** Puts the real Date.now() back. */
  restore(): void;
}

/**
 * Date.now() of this process, where the test's emulators run, set to run ahead of the real clock
 * by what the test advances it: the clock that the emulator's `late` records are hidden by
 * (src/emulator/faults/faults.ts) and that stamps its records (model/state.ts `now`). A record
 * hidden for 12 s then shows once the test has moved the clock 12 s, not after 12 s of waiting,
 * while the CLI, in its own process, keeps the real time: its settle window is really read.
 * (The emulator's own clock, POST /__emulator/clock, does not move what `late` hides.) vitest
 * times tests on performance.now() and timers of its own, which this leaves alone; `restore()`
 * in the test's afterEach, since a worker runs the next file in the same process.
 */
export function clockAhead(): ClockAhead {
  const real = Date.now;
  let ahead = 0;
  Date.now = () => real() + ahead;
  return {
    advance: (ms) => {
      ahead += ms;
    },
    restore: () => {
      Date.now = real;
    },
  };
}
