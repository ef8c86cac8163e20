// HTTP/1.1 for the client over Node's own node:http: keep-alive Agents, one request at a
// time per connection, nothing followed (no redirects), no timeouts of its own (the client
// aborts through `signal`). Node's parser is llhttp in C++, ready at start; undici's is the
// same parser in WebAssembly, which V8 compiles on first use and recompiles with TurboFan
// once enough answers went through it (start-up time and ~40 MB of peak memory on long
// lists; see bench/RESULTS.md). node:https (and with it TLS) is loaded only for https.

import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';

export interface TransportRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/** The answer once its head is in; `body` is a Readable (iterate it, or destroy it). */
export type Answer = IncomingMessage;

export class Transport {
  readonly #agents = new Map<string, Agent>();
  readonly #keepAliveMs: number;

  constructor(o: { keepAliveMs: number }) {
    this.#keepAliveMs = o.keepAliveMs;
  }

  async request(o: TransportRequest): Promise<Answer> {
    const https = o.url.protocol === 'https:';
    const send = https ? (await import('node:https')).request : httpRequest;
    const agent = await this.#agent(o.url.protocol);
    const headers: Record<string, string> = { ...o.headers };
    if (o.body !== undefined) headers['content-length'] = String(Buffer.byteLength(o.body));
    return new Promise<Answer>((resolve, reject) => {
      const req = send(o.url, { method: o.method, headers, agent, signal: o.signal });
      req.once('response', resolve);
      req.once('error', reject);
      req.end(o.body);
    });
  }

  close(): void {
    for (const agent of this.#agents.values()) agent.destroy();
    this.#agents.clear();
  }

  async #agent(protocol: string): Promise<Agent> {
    let agent = this.#agents.get(protocol);
    if (!agent) {
      const options = { keepAlive: true, timeout: this.#keepAliveMs, scheduling: 'lifo' as const };
      agent = protocol === 'https:' ? new (await import('node:https')).Agent(options) : new Agent(options);
      this.#agents.set(protocol, agent);
    }
    return agent;
  }
}
