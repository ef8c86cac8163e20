// A read tool runs the command itself (orders list, orders get, search…) with `-o json`, into
// a buffer instead of stdout — which is the protocol's — so that what a tool returns is what
// the CLI prints with -o json, byte for byte: same data, same checks, same exact JSON. Its
// stderr lines (the "Read N pages" line, warnings) come back as notes. The runtime shares the
// server's environment and API client.

import { Readable, Writable } from 'node:stream';
import type { ApiClient } from '../api/client.js';
import type { Context } from '../config/resolve.js';
import type { ConfigStore } from '../config/store.js';
import { Runtime } from '../ops/runtime/runtime.js';

function collector(into: string[]): NodeJS.WriteStream {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      into.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      done();
    },
  }) as unknown as NodeJS.WriteStream;
}

class CallRuntime extends Runtime {
  constructor(
    private readonly server: Runtime,
    out: string[],
    err: string[],
    signal: AbortSignal,
  ) {
    super(
      {
        stdout: collector(out),
        stderr: collector(err),
        stdin: Readable.from([]) as never,
        stdinIsTTY: false,
      },
      server.env,
      {
        ...server.flags,
        output: 'json',
        json: undefined,
        query: undefined,
        input: false,
        color: false,
        yes: false,
      },
      signal,
    );
  }

  override config(): Promise<ConfigStore> {
    return this.server.config();
  }

  override context(): Promise<Context> {
    return this.server.context();
  }

  override client(): Promise<ApiClient> {
    return this.server.client();
  }

  // The server's runtime closes the shared client when the server stops.
  override async close(): Promise<void> {}
}

export interface Printed {
  /** What the command wrote on stdout with -o json. */
  json: string;
  /** Its stderr lines (without the line ends). */
  notes: string[];
}

/** Runs a command's function as `billing … -o json` would, and returns what it printed. */
export async function printed(
  server: Runtime,
  signal: AbortSignal,
  command: (rt: Runtime) => Promise<void>,
): Promise<Printed> {
  const out: string[] = [];
  const err: string[] = [];
  await command(new CallRuntime(server, out, err, signal));
  return {
    json: out.join(''),
    notes: err
      .join('')
      .split('\n')
      .filter((line) => line !== ''),
  };
}
