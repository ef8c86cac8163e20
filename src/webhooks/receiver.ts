// The transport of `webhooks listen`: an HTTP server that takes deliveries, verifies each
// on its raw bytes, skips repeats, forwards to the app and answers the service. What it
// saw goes to `onReport` as data; how that is shown is the renderer's business
// (stripe-cli's listen.go keeps the two apart the same way).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { browserRefusal, hostOfHeader, namesThisMachine } from '../domain/hosts.js';
import { DeliveryLedger } from './dedupe.js';
import { describeEvent, type EventSummary } from './describe.js';
import { encodeBody, type Recorder, recordDigest } from './recorder.js';
import { CREDENTIAL_HEADERS, forwardableHeaders, Sender, type SendResult } from './sender.js';
import {
  DEFAULT_TOLERANCE_S,
  DELIVERY_HEADER,
  SIGNATURE_HEADER,
  type VerifyFailure,
  verifySignature,
} from './signature.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Set by `webhooks trigger` on an event not backed by a state change (lower case: Node's header names). */
export const SYNTHETIC_HEADER = 'x-billing-synthetic';

export interface ReceiverOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Deliveries are taken on this path only (a trailing slash is forgiven). */
  path: string;
  /** The signing secret; undefined means verification is off (--skip-verify). */
  secret: string | undefined;
  toleranceS?: number;
  maxBodyBytes?: number;
  /** Host names besides this machine's that requests may be addressed to (a tunnel's public host). */
  publicHosts?: string[];
  /** Only these event names are shown and forwarded; others are acknowledged and counted. */
  events?: ReadonlySet<string>;
  forwardTo?: string;
  forwardTimeoutMs?: number;
  recorder?: Recorder;
  dedupeCapacity?: number;
  /** What the remembered delivery ids may take, in bytes. */
  dedupeBytes?: number;
  onReport(report: Report): void;
}

export interface DeliveryReport {
  kind: 'delivery';
  receivedAt: Date;
  deliveryId: string | null;
  summary: EventSummary;
  verified: boolean;
  /** A repeat of a delivery that was already done: acknowledged, not forwarded. */
  duplicate: boolean;
  /** Sent by `webhooks trigger` without a state change behind it (X-Billing-Synthetic: true). */
  synthetic: boolean;
  /** What arrived, for the inspector (credential headers left out). */
  headers: Record<string, string>;
  body: Buffer;
  /** Set on a replay from the inspector: the entry it replays, and whether its body was edited. */
  replay?: { of: number; edited: boolean; signed: boolean };
  forward?: { url: string; result: SendResult };
  /** What the service was answered. */
  answer: number;
  bytes: number;
}

export interface RejectedReport {
  kind: 'rejected';
  receivedAt: Date;
  /** As claimed by the request; not verified (cut to SHOWN_ID characters). */
  deliveryId: string | null;
  reason: VerifyFailure | 'too_large' | 'delivery_mismatch' | 'not_this_machine' | 'cross_site';
  message: string;
  answer: number;
  remote: string;
  headers: Record<string, string>;
  /** undefined when it was too large to read. */
  body?: Buffer;
}

export interface FilteredReport {
  kind: 'filtered';
  receivedAt: Date;
  deliveryId: string | null;
  event: string | null;
  headers: Record<string, string>;
  body: Buffer;
}

/** A request that was not a delivery: wrong path or method. */
export interface StrayReport {
  kind: 'stray';
  receivedAt: Date;
  method: string;
  path: string;
  answer: number;
}

export type Report = DeliveryReport | RejectedReport | FilteredReport | StrayReport;

export interface ReceiverStats {
  received: number;
  /** Deliveries sent on to the app (accepted or not). */
  forwarded: number;
  /** Of those, the ones the app did not accept (error status, no answer). */
  forwardFailed: number;
  duplicates: number;
  rejected: number;
  filtered: number;
}

export class PortInUseError extends Error {
  override name = 'PortInUseError';
}

const JSON_TYPE = 'application/json; charset=utf-8';

export class WebhookReceiver {
  readonly stats: ReceiverStats = {
    received: 0,
    forwarded: 0,
    forwardFailed: 0,
    duplicates: 0,
    rejected: 0,
    filtered: 0,
  };
  private readonly server: Server;
  private readonly ledger: DeliveryLedger;
  private readonly sender: Sender | undefined;
  private readonly path: string;
  private readonly maxBody: number;
  private readonly tolerance: number;
  private readonly stopping = new AbortController();

  constructor(private readonly o: ReceiverOptions) {
    this.path = trimSlash(o.path);
    this.maxBody = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.tolerance = o.toleranceS ?? DEFAULT_TOLERANCE_S;
    this.ledger = new DeliveryLedger(o.dedupeCapacity, o.dedupeBytes);
    for (const host of o.publicHosts ?? []) this.allowHost(host);
    this.sender = o.forwardTo ? new Sender({ timeoutMs: o.forwardTimeoutMs }) : undefined;
    this.server = createServer({ keepAlive: true }, (req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        // Whatever a request did, the listener keeps running.
        if (!res.headersSent)
          reply(res, 500, { error: { message: `listen failed: ${(err as Error).message}` } });
        else res.destroy();
      });
    });
    this.server.headersTimeout = 30_000;
    this.server.requestTimeout = 60_000;
  }

  /** Listens and resolves with the address actually bound. */
  start(): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException) => {
        if (err.code === 'EADDRINUSE') {
          reject(
            new PortInUseError(`port ${this.o.port} on ${this.o.host} is already in use`, { cause: err }),
          );
        } else {
          reject(err);
        }
      };
      this.server.once('error', onError);
      this.server.listen(this.o.port, this.o.host, () => {
        this.server.off('error', onError);
        resolve(this.server.address() as AddressInfo);
      });
    });
  }

  /** Stops taking requests, lets the ones in progress finish for up to `graceMs`, then closes. */
  async close(graceMs = 2_000): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    const force = setTimeout(() => {
      this.stopping.abort();
      this.server.closeAllConnections();
    }, graceMs);
    await closed;
    clearTimeout(force);
    await this.sender?.close();
  }

  /** Requests addressed to `host` (a tunnel's public name, which it passes on) are taken too. */
  allowHost(host: string): void {
    this.publicHosts.add(host.toLowerCase());
  }

  private readonly publicHosts = new Set<string>();

  /**
   * What no service sends and only a web page on another site does, refused before the body
   * is read, verified or not (--skip-verify): a Host that does not name this machine (DNS
   * rebinding) or a public host of ours, a foreign Origin, a cross-site Sec-Fetch-Site.
   */
  private refusal(
    req: IncomingMessage,
  ): { reason: 'not_this_machine' | 'cross_site'; answer: number; message: string } | undefined {
    const host = req.headers.host;
    const named =
      namesThisMachine(host, this.o.host) ||
      (host !== undefined && this.publicHosts.has(hostOfHeader(host) ?? ''));
    if (!named) {
      return {
        reason: 'not_this_machine',
        answer: 421,
        message: `listen answers only requests addressed to this machine, not Host ${JSON.stringify(clip(host ?? ''))}`,
      };
    }
    const browser = browserRefusal(req.headers, 'listen');
    return browser === undefined ? undefined : { reason: 'cross_site', answer: 403, message: browser };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAt = new Date();
    const url = req.url ?? '/';
    const refused = this.refusal(req);
    if (refused) {
      this.stats.received++;
      reply(
        res,
        refused.answer,
        { error: { message: refused.message, reason: refused.reason } },
        { Connection: 'close' },
      );
      const claimed = header(req, DELIVERY_HEADER);
      this.reject(
        req,
        receivedAt,
        claimed === undefined ? null : clip(claimed),
        refused.reason,
        refused.message,
        refused.answer,
      );
      return;
    }
    const query = url.indexOf('?');
    const path = trimSlash(query >= 0 ? url.slice(0, query) : url);
    if (path !== this.path || req.method !== 'POST') {
      const answer = path !== this.path ? 404 : 405;
      req.resume();
      const message =
        answer === 404 ? `webhooks are taken on ${this.path || '/'}` : 'webhooks are taken with POST';
      reply(res, answer, { error: { message } }, answer === 405 ? { Allow: 'POST' } : undefined);
      this.o.onReport({ kind: 'stray', receivedAt, method: req.method ?? '', path, answer });
      return;
    }
    this.stats.received++;
    const claimedId = header(req, DELIVERY_HEADER) ?? null;
    const shownId = claimedId === null ? null : clip(claimedId);

    const body = await this.readBody(req, res);
    if (body === undefined) {
      this.reject(
        req,
        receivedAt,
        shownId,
        'too_large',
        `the body is larger than ${this.maxBody} bytes`,
        413,
      );
      return;
    }

    let verified = false;
    if (this.o.secret !== undefined) {
      const check = verifySignature(body, header(req, SIGNATURE_HEADER), this.o.secret, {
        toleranceS: this.tolerance,
      });
      if (!check.ok) {
        reply(res, 400, { error: { message: check.message, reason: check.reason } });
        this.reject(req, receivedAt, shownId, check.reason, check.message, 400, body);
        return;
      }
      verified = true;
    }

    // The signature covers the body, not the headers: a delivery is the body's id. The
    // interface says X-Service-Delivery equals it; a header that differs is a replay under a
    // new name (or would mark another delivery done), so it is refused, not trusted.
    const summary = describeEvent(body);
    const deliveryId = summary.id;
    if (claimedId !== null && claimedId !== deliveryId) {
      const message = `${DELIVERY_HEADER} ${JSON.stringify(clip(claimedId))} is not the id of the ${verified ? 'signed ' : ''}body (${deliveryId === null ? 'it has none' : JSON.stringify(clip(deliveryId))}); the interface says they are equal`;
      reply(res, 400, { error: { message, reason: 'delivery_mismatch' } });
      this.reject(req, receivedAt, shownId, 'delivery_mismatch', message, 400, body);
      return;
    }
    if (this.o.events && !(summary.event !== null && this.o.events.has(summary.event))) {
      this.stats.filtered++;
      reply(res, 200, { received: true, ignored: 'not in --events' });
      this.o.onReport({
        kind: 'filtered',
        receivedAt,
        deliveryId,
        event: summary.event,
        headers: flatHeaders(req),
        body,
      });
      return;
    }

    const synthetic = header(req, SYNTHETIC_HEADER) === 'true';
    const deliver = async () => {
      const duplicate = deliveryId !== null && this.ledger.isDone(deliveryId);
      this.o.recorder?.append({
        received_at: receivedAt.toISOString(),
        delivery_id: deliveryId,
        method: 'POST',
        path: url,
        verified,
        ...(synthetic ? { synthetic: true } : {}),
        ...(verified && this.o.secret !== undefined
          ? { verified_digest: recordDigest(this.o.secret, body) }
          : {}),
        duplicate,
        headers: flatHeaders(req),
        ...encodeBody(body),
      });
      const report: DeliveryReport = {
        kind: 'delivery',
        receivedAt,
        deliveryId,
        summary,
        verified,
        duplicate,
        synthetic,
        headers: flatHeaders(req),
        body,
        answer: 200,
        bytes: body.length,
      };
      if (duplicate) {
        this.stats.duplicates++;
      } else if (this.sender && this.o.forwardTo) {
        const result = await this.sender.post(
          this.o.forwardTo,
          body,
          forwardableHeaders(req.rawHeaders),
          this.stopping.signal,
        );
        this.stats.forwarded++;
        report.forward = { url: this.o.forwardTo, result };
        report.answer = answerFor(result);
        if (result.ok) {
          if (deliveryId !== null) this.ledger.markDone(deliveryId);
        } else {
          this.stats.forwardFailed++;
        }
      } else if (deliveryId !== null) {
        this.ledger.markDone(deliveryId);
      }
      return report;
    };
    const report = deliveryId === null ? await deliver() : await this.ledger.exclusive(deliveryId, deliver);
    reply(
      res,
      report.answer,
      report.answer < 300
        ? { received: true, duplicate: report.duplicate }
        : { error: { message: forwardMessage(report.forward?.result) } },
    );
    this.o.onReport(report);
  }

  private reject(
    req: IncomingMessage,
    receivedAt: Date,
    deliveryId: string | null,
    reason: RejectedReport['reason'],
    message: string,
    answer: number,
    body?: Buffer,
  ): void {
    this.stats.rejected++;
    this.o.onReport({
      kind: 'rejected',
      receivedAt,
      deliveryId,
      reason,
      message,
      answer,
      remote: req.socket.remoteAddress ?? '?',
      headers: flatHeaders(req),
      ...(body === undefined ? {} : { body }),
    });
  }

  /** The whole body, or undefined after answering 413 when it is larger than the limit. */
  private readBody(req: IncomingMessage, res: ServerResponse): Promise<Buffer | undefined> {
    const tooLarge = () => {
      reply(
        res,
        413,
        { error: { message: `the body is larger than ${this.maxBody} bytes` } },
        { Connection: 'close' },
      );
      // Do not read megabytes only to throw them away.
      res.once('finish', () => req.destroy());
    };
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBody) {
      tooLarge();
      return Promise.resolve(undefined);
    }
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let over = false;
      req.on('data', (chunk: Buffer) => {
        if (over) return;
        size += chunk.length;
        if (size > this.maxBody) {
          over = true;
          chunks.length = 0;
          tooLarge();
          resolve(undefined);
        } else {
          chunks.push(chunk);
        }
      });
      req.on('end', () => {
        if (!over) resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
      });
      req.on('error', (err) => {
        if (!over) reject(err);
      });
    });
  }
}

/** The app's verdict becomes the service's answer, so that the service retries what the app refused. */
export function answerFor(result: SendResult): number {
  if (result.ok) return 200;
  if (result.status >= 400) return result.status;
  if (result.status === 0 && 'timedOut' in result && result.timedOut) return 504;
  return 502;
}

function forwardMessage(result: SendResult | undefined): string {
  if (!result) return 'not accepted';
  if (result.status === 0 && 'error' in result) return `the app could not be reached: ${result.error}`;
  return `the app answered ${result.status}`;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The headers to record: credentials are never written to the file (sender.ts). */
export function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || CREDENTIAL_HEADERS.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Ids in reports and messages: a header may be 8 KB long. */
const SHOWN_ID = 200;

function clip(id: string): string {
  return id.length > SHOWN_ID ? `${id.slice(0, SHOWN_ID)}…` : id;
}

function reply(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path === '/' ? '' : path;
}
