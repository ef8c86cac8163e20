// `webhooks listen --inspect`: a page on 127.0.0.1 that lists each delivery live (server-sent
// events), with its headers, raw body, signature check and what the app answered, and that
// replays one (or an edited copy) to the app. Only its owner gets an answer: a Host that names
// this machine, no cross-site request (the emulator admin API's rules, src/domain/hosts.ts),
// and the per-run token of the printed address on every request but the page's static files.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { browserRefusal, crossSiteRefusal, namesThisMachine } from '../domain/hosts.js';
import { INSPECTOR_CSS, INSPECTOR_HTML, INSPECTOR_JS } from './inspector-page.js';
import type { Report } from './receiver.js';

/** One delivery as the page shows it: text only, rendered by the page with textContent. */
export interface InspectorEntry {
  id: number;
  received_at: string;
  kind: 'delivery' | 'rejected' | 'skipped' | 'replay';
  delivery_id: string | null;
  event: string | null;
  headers: Record<string, string>;
  body: string;
  signature: { checked: boolean; ok: boolean; message: string };
  synthetic: boolean;
  duplicate: boolean;
  replay: { of: number; edited: boolean; signed: boolean } | null;
  /** What the service (or, for a replay, nobody) was answered. */
  answer: number | null;
  app: { status: number | null; latency_ms: number; error: string | null } | null;
  /** Can it be replayed to the app? */
  replayable: boolean;
}

/** A replay asked for by the page: the entry, the exact bytes it carried, and the edited body if any. */
export type ReplayRequest = (
  entry: InspectorEntry,
  original: Buffer,
  editedBody: string | undefined,
) => Promise<void>;

export class InspectorError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const KEEP = 300;
const MAX_EDIT_BYTES = 1024 * 1024;

export class Inspector {
  readonly token = randomBytes(24).toString('base64url');
  private readonly entries: InspectorEntry[] = [];
  /** The bytes of each entry, by id: what a replay sends unless edited. */
  private readonly bodies = new Map<number, Buffer>();
  private readonly streams = new Set<ServerResponse>();
  private readonly server: Server;
  private next = 1;

  constructor(private readonly o: { host: string; port: number; canReplay: boolean; replay: ReplayRequest }) {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) send(res, 500, { error: { message: (err as Error).message } });
        else res.destroy();
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.o.port, this.o.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const { port } = this.server.address() as AddressInfo;
    return `http://${this.o.host}:${port}/?token=${this.token}`;
  }

  async close(): Promise<void> {
    for (const res of this.streams) res.end();
    this.streams.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
  }

  /** Takes what listen's receiver (or a replay) reported. */
  add(report: Report): void {
    if (report.kind === 'stray') return;
    const entry = toEntry(this.next++, report, this.o.canReplay);
    this.entries.push(entry);
    if ('body' in report && report.body) this.bodies.set(entry.id, report.body);
    if (this.entries.length > KEEP) {
      const dropped = this.entries.shift();
      if (dropped) this.bodies.delete(dropped.id);
    }
    const frame = `data: ${JSON.stringify(entry)}\n\n`;
    for (const res of this.streams) res.write(frame);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!namesThisMachine(req.headers.host, this.o.host)) {
      send(res, 421, { error: { message: 'the inspector answers only requests addressed to 127.0.0.1' } });
      return;
    }
    const url = new URL(req.url ?? '/', 'http://inspector.invalid');
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /app.js') return sendText(res, 'text/javascript', INSPECTOR_JS);
    if (route === 'GET /app.css') return sendText(res, 'text/css', INSPECTOR_CSS);
    // Who asks, before any body is read (a body unread closes the connection): a browser on
    // another site, then the token. Only a replay's body is read, and at most READ_LIMIT of it.
    const browser = browserRefusal(req.headers, 'the inspector');
    if (browser) return refuse(res, 403, browser);
    const token = url.searchParams.get('token') ?? headerOf(req, 'x-inspector-token');
    if (!sameToken(token, this.token)) {
      return refuse(
        res,
        403,
        'open the inspector with the address webhooks listen printed (it carries a token)',
      );
    }
    if (route === 'GET /') return sendText(res, 'text/html', INSPECTOR_HTML);
    if (route === 'GET /api/stream') return this.stream(res);
    const replay = /^POST \/api\/entries\/(\d+)\/replay$/.exec(route);
    if (!replay) return refuse(res, 404, `no ${route}`);
    if (Number(req.headers['content-length'] ?? 0) > READ_LIMIT) {
      return refuse(res, 413, `a replay's request may be at most ${READ_LIMIT} bytes`);
    }
    let rawBody: string;
    try {
      rawBody = await readBody(req);
    } catch {
      return refuse(res, 413, `a replay's request may be at most ${READ_LIMIT} bytes`);
    }
    const refused = crossSiteRefusal(req.headers, rawBody, 'the inspector');
    if (refused) return send(res, 403, { error: { message: refused } });
    return this.replay(res, Number(replay[1]), rawBody);
  }

  private stream(res: ServerResponse): void {
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
    });
    // A comment first, so that the page learns at once that the stream is open.
    res.write(': live\n\n');
    for (const entry of this.entries) res.write(`data: ${JSON.stringify(entry)}\n\n`);
    this.streams.add(res);
    res.on('close', () => this.streams.delete(res));
  }

  private async replay(res: ServerResponse, id: number, rawBody: string): Promise<void> {
    const entry = this.entries.find((e) => e.id === id);
    if (!entry)
      return send(res, 404, { error: { message: `no entry ${id} (the inspector keeps the last ${KEEP})` } });
    if (!entry.replayable) {
      return send(res, 409, {
        error: {
          message: this.o.canReplay
            ? 'only deliveries can be replayed'
            : 'listen has no --forward-to: there is no app to replay to',
        },
      });
    }
    let edited: string | undefined;
    if (rawBody !== '') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(rawBody);
      } catch {
        return send(res, 400, {
          error: { message: 'the request body must be JSON: {"body": "…"} or nothing' },
        });
      }
      const body = (parsed as { body?: unknown } | null)?.body;
      if (body !== undefined && typeof body !== 'string') {
        return send(res, 400, { error: { message: 'body must be the edited delivery body, as text' } });
      }
      if (typeof body === 'string' && Buffer.byteLength(body) > MAX_EDIT_BYTES) {
        return send(res, 413, {
          error: { message: `an edited body may be at most ${MAX_EDIT_BYTES} bytes` },
        });
      }
      edited = body;
    }
    try {
      await this.o.replay(entry, this.bodies.get(id) ?? Buffer.from(entry.body), edited);
    } catch (err) {
      if (err instanceof InspectorError) return send(res, err.status, { error: { message: err.message } });
      throw err;
    }
    send(res, 202, { replayed: id, latest: this.entries[this.entries.length - 1] ?? null });
  }
}

function toEntry(id: number, r: Exclude<Report, { kind: 'stray' }>, canReplay: boolean): InspectorEntry {
  const base = {
    id,
    received_at: r.receivedAt.toISOString(),
    delivery_id: r.deliveryId,
    headers: r.headers,
    synthetic: false,
    duplicate: false,
    replay: null,
    app: null,
  };
  switch (r.kind) {
    case 'rejected':
      return {
        ...base,
        kind: 'rejected',
        event: null,
        body: r.body?.toString('utf8') ?? '(not read: too large)',
        signature: { checked: true, ok: false, message: r.message },
        answer: r.answer,
        replayable: false,
      };
    case 'filtered':
      return {
        ...base,
        kind: 'skipped',
        event: r.event,
        body: r.body.toString('utf8'),
        signature: { checked: true, ok: true, message: 'verified; skipped (not in --events)' },
        answer: 200,
        replayable: false,
      };
    case 'delivery': {
      const fwd = r.forward?.result;
      return {
        ...base,
        kind: r.replay ? 'replay' : 'delivery',
        event: r.summary.event,
        body: r.body.toString('utf8'),
        signature: r.replay
          ? {
              checked: false,
              ok: r.replay.signed,
              message: r.replay.signed
                ? `re-signed: the original was verified${r.replay.edited ? ' (body edited)' : ''}`
                : 'sent unsigned (X-Billing-Unverified): the original was not verified',
            }
          : {
              checked: r.verified,
              ok: r.verified,
              message: r.verified ? 'valid X-Service-Signature' : 'not checked (--skip-verify)',
            },
        synthetic: r.synthetic,
        duplicate: r.duplicate,
        replay: r.replay ?? null,
        answer: r.replay ? null : r.answer,
        app: fwd
          ? {
              status: fwd.status === 0 ? null : fwd.status,
              latency_ms: Math.round(fwd.latencyMs * 10) / 10,
              error: 'error' in fwd ? fwd.error : null,
            }
          : null,
        replayable: canReplay,
      };
    }
  }
}

/** The page, its script and its answers: nothing from elsewhere, no framing, no referrer (the token is in the URL). */
const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

function sendText(res: ServerResponse, type: string, text: string): void {
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': `${type}; charset=utf-8`,
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function sameToken(given: string | null | undefined, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** An answer that closes the connection: the request's body, if any, is never read. */
function refuse(res: ServerResponse, status: number, message: string): void {
  res.setHeader('Connection', 'close');
  send(res, status, { error: { message } });
}

/** What the inspector keeps of one request: an edited body (MAX_EDIT_BYTES) in its JSON, with room for escapes. */
const READ_LIMIT = MAX_EDIT_BYTES * 2;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > READ_LIMIT) {
        req.destroy();
        reject(new Error('request too large'));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
