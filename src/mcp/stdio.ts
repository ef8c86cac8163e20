// The MCP server's stdio transport (issue 34 §4), in place of the SDK's, which ends the server
// without a word on a line over 10 MiB and keeps reading while its answers pile up unread.
// Here a line is bounded in bytes while it arrives (an oversized one is skipped to its end,
// unbuffered, and answered with a JSON-RPC error); an unparsable line is answered with one too;
// the server goes on after both. Reading stops while answers wait to be read (stdout said
// "wait") or too many requests are unanswered, and starts again once they are: memory stays
// flat whatever a client pipelines without reading.

import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

export const STDIO_LIMITS = {
  /** A request line longer than this is not read. */
  lineBytes: 4 * 1024 * 1024,
  /** Requests read and not yet answered before reading stops. */
  inFlight: 32,
} as const;

type Id = string | number | null;

/** A JSON-RPC error answer that echoes nothing of the line it answers. */
function rpcError(id: Id, code: number, message: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
}

const isRequest = (m: Record<string, unknown>) => typeof m.method === 'string' && 'id' in m;
const isAnswer = (m: Record<string, unknown>) =>
  'id' in m && ('result' in m || 'error' in m) && !('method' in m);

export class BoundedStdioTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];

  #chunks: Buffer[] = [];
  #size = 0;
  /** Inside a line past the bound: its bytes are dropped until its end. */
  #skipping = false;
  /** What arrived while reading was stopped, read once it starts again. */
  #pending: Buffer | undefined;
  #inFlight = 0;
  #draining = false;
  #closed = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream,
    private readonly stdout: NodeJS.WritableStream,
    private readonly limits: { lineBytes: number; inFlight: number } = STDIO_LIMITS,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.#onData);
    this.stdin.on('error', this.#onError);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.stdin.off('data', this.#onData);
    this.stdin.off('error', this.#onError);
    this.stdin.pause();
    this.#chunks = [];
    this.#pending = undefined;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (isAnswer(message as Record<string, unknown>)) this.#answered();
    return this.#write(message);
  }

  #answered(): void {
    if (this.#inFlight > 0) this.#inFlight -= 1;
  }

  #write(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) {
        resolve();
        this.#maybeResume();
        return;
      }
      this.#draining = true;
      this.stdout.once('drain', () => {
        this.#draining = false;
        resolve();
        this.#maybeResume();
      });
    });
  }

  #onError = (error: Error) => this.onerror?.(error);

  #blocked(): boolean {
    return this.#draining || this.#inFlight >= this.limits.inFlight;
  }

  #maybeResume(): void {
    if (this.#closed || this.#blocked()) return;
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending) this.#onData(pending);
    if (!this.#pending && !this.#blocked()) this.stdin.resume();
  }

  #onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start < bytes.length) {
      if (this.#blocked()) {
        // Stop reading: what is left of this chunk waits, and so does stdin.
        this.#pending = bytes.subarray(start);
        this.stdin.pause();
        return;
      }
      const newline = bytes.indexOf(10, start);
      const end = newline === -1 ? bytes.length : newline;
      if (!this.#skipping) {
        if (this.#size + (end - start) > this.limits.lineBytes) {
          this.#skipping = true;
          this.#chunks = [];
          this.#size = 0;
        } else if (end > start) {
          this.#chunks.push(bytes.subarray(start, end));
          this.#size += end - start;
        }
      }
      if (newline === -1) return;
      start = newline + 1;
      if (this.#skipping) {
        this.#skipping = false;
        void this.#write(
          rpcError(
            null,
            -32600,
            `a request line is longer than ${this.limits.lineBytes} bytes: it was not read`,
          ),
        );
        continue;
      }
      const line = Buffer.concat(this.#chunks, this.#size).toString('utf8').replace(/\r$/, '');
      this.#chunks = [];
      this.#size = 0;
      if (line.trim() !== '') this.#line(line);
    }
  };

  #line(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      void this.#write(rpcError(null, -32700, 'parse error: a line is not JSON'));
      return;
    }
    const checked = JSONRPCMessageSchema.safeParse(parsed);
    if (!checked.success) {
      const id = (parsed as { id?: unknown } | null)?.id;
      const known = typeof id === 'number' || (typeof id === 'string' && id.length <= 64) ? id : null;
      void this.#write(rpcError(known, -32600, 'invalid request: not a JSON-RPC 2.0 message'));
      return;
    }
    const message = checked.data;
    const fields = message as Record<string, unknown>;
    if (isRequest(fields)) this.#inFlight += 1;
    // A request the client cancels gets no answer: it is no longer waited for.
    if (fields.method === 'notifications/cancelled') this.#answered();
    this.onmessage?.(message);
  }
}
