// Writing to stdout without buffering a whole list in memory, and without crashing when
// the reader goes away (`billing orders list --all | head`).

import { setImmediate as nextTurn } from 'node:timers/promises';
import { SystemError } from '../errors.js';

interface StreamState {
  closed: boolean;
  /** The closed reader's error (EPIPE): quiet for a listing, but a money move's result was lost. */
  closedBy?: Error;
  /** An error that is not a closed reader (a full disk): the caller should hear of it. */
  error?: Error;
  reported?: Error;
}

type Inspectable = NodeJS.WritableStream & {
  destroyed?: boolean;
  writableEnded?: boolean;
  errored?: unknown;
};

const states = new WeakMap<NodeJS.WritableStream, StreamState>();

const CLOSED_CODES = new Set([
  'EPIPE',
  'ECONNRESET',
  'ERR_STREAM_DESTROYED',
  'ERR_STREAM_WRITE_AFTER_END',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

function isClosedReader(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CLOSED_CODES.has(code);
}

// One listener per stream for its whole life: an EPIPE may be emitted after our last
// write, and an 'error' event nobody listens to would crash the process.
function stateOf(stream: NodeJS.WritableStream): StreamState {
  let state = states.get(stream);
  if (!state) {
    const s: StreamState = { closed: false };
    stream.on('error', (err: Error) => {
      s.closed = true;
      if (!isClosedReader(err)) s.error ??= err;
      else s.closedBy ??= err;
    });
    stream.on('close', () => {
      s.closed = true;
    });
    states.set(stream, s);
    state = s;
  }
  return state;
}

function waitForDrain(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    stream.on('error', done);
  });
}

/** Every so many writes the event loop gets a turn, so that an EPIPE is seen even when the source is an array. */
const WRITES_PER_TURN = 256;

/**
 * What is written is gathered up to this many characters, then handed to the stream in one
 * write: one write per record cost ~0.6 s of 4 over 100,000 orders (bench/RESULTS.md, "Long
 * lists"). What is gathered also goes out as soon as the event loop has nothing else to do
 * (the source waits for a page), so a line is never held back for more than a turn.
 */
const BATCH_CHARS = 64 * 1024;

export class Sink {
  private readonly state: StreamState;
  private writes = 0;
  private pending: string[] = [];
  private pendingChars = 0;
  private idle: NodeJS.Immediate | undefined;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    /** Hands each chunk on at once instead of gathering (Output.eachAtOnce). */
    private readonly atOnce = false,
  ) {
    this.state = stateOf(stream);
  }

  get closed(): boolean {
    const w = this.stream as Inspectable;
    return this.state.closed || w.destroyed === true || w.writableEnded === true || w.errored != null;
  }

  /**
   * Gathers `chunk` (see BATCH_CHARS); false once nobody reads any more. A promise only when
   * there is something to wait for (a write handed on, a turn of the event loop): a list
   * writes one line a record, and each promise is a microtask and garbage.
   */
  write(chunk: string): boolean | Promise<boolean> {
    if (this.closed) return false;
    this.pending.push(chunk);
    this.pendingChars += chunk.length;
    if (this.atOnce || this.pendingChars >= BATCH_CHARS) return this.flush();
    this.idle ??= setImmediate(() => {
      this.idle = undefined;
      void this.flush();
    });
    if (++this.writes % WRITES_PER_TURN === 0) return nextTurn().then(() => !this.closed);
    return !this.closed;
  }

  /** Hands on what was gathered, and waits for 'drain' when the stream asks to. */
  async flush(): Promise<boolean> {
    if (this.idle) clearImmediate(this.idle);
    this.idle = undefined;
    if (this.pending.length === 0) return !this.closed;
    const chunk = this.pending.length === 1 ? this.pending[0]! : this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    if (this.closed) return false;
    let flowing: boolean;
    try {
      flowing = this.stream.write(chunk);
    } catch (err) {
      if (!isClosedReader(err)) throw err;
      this.state.closed = true;
      this.state.closedBy ??= err as Error;
      return false;
    }
    if (!flowing && !this.closed) await waitForDrain(this.stream);
    return !this.closed;
  }

  /** Throws a write error that was not a closed reader, once, as a SystemError (exit 12). */
  check(): void {
    const error = failureOf(this.stream, this.state);
    if (error && error !== this.state.reported) {
      this.state.reported = error;
      throw outputError(error);
    }
  }
}

function failureOf(stream: NodeJS.WritableStream, state: StreamState): Error | undefined {
  const errored = (stream as Inspectable).errored;
  const error = state.error ?? (errored instanceof Error ? errored : undefined);
  return error && !isClosedReader(error) ? error : undefined;
}

/**
 * Listens for a stream's write errors from its first write on: a full disk or a closed
 * descriptor then becomes a value that main() reports (exit 12), never an uncaught 'error'.
 */
export function watchOutput(stream: NodeJS.WritableStream): void {
  stateOf(stream);
}

/**
 * Resolves once what was written before has been handed on, or has failed: a pipe's EPIPE
 * arrives after the write that met it, and must be known before the exit code is.
 */
export function flushed(stream: NodeJS.WritableStream): Promise<void> {
  const w = stream as Inspectable;
  if (w.destroyed || w.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    try {
      stream.write('', () => resolve());
    } catch {
      resolve();
    }
  });
}

/** How writing to a watched stream failed: a machine failure (ENOSPC, EIO), a closed reader, or not at all. */
export function outputFailure(stream: NodeJS.WritableStream): { failed?: Error; closed?: Error } {
  const state = stateOf(stream);
  return { failed: failureOf(stream, state), closed: state.closedBy };
}

/** Whether an error is one of writing our output (the stream's own), not of the command. */
export function isOutputError(stream: NodeJS.WritableStream, err: unknown): boolean {
  const state = stateOf(stream);
  return err !== undefined && (err === state.error || err === state.closedBy);
}

/** The one-line SystemError for output that could not be written. */
export function outputError(err: Error, what = 'standard output'): SystemError {
  const code = (err as NodeJS.ErrnoException).code;
  const reason = err.message.replace(/^[A-Z]+: /, '').replace(/, write$/, '');
  return new SystemError(`could not write to ${what}: ${reason}${code ? ` (${code})` : ''}`, { cause: err });
}
