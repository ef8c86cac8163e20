// How `webhooks listen` shows what its receiver reports: one line per event on stdout
// (a human line on a terminal, a tab-separated line in a pipe, a JSON object with --json),
// and everything else (rejections, stray requests, the summary) on stderr.

import { type ChalkInstance, chalkFor } from '../format/color.js';
import { statusStyle } from '../format/index.js';
import { plural, singleLine } from '../format/text.js';
import type { DeliveryReport, ReceiverStats, Report } from './receiver.js';

export type EventFormat = 'human' | 'tsv' | 'json';

export interface RendererOptions {
  format: EventFormat;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  color: boolean;
  stderrColor: boolean;
  /** Kept for callers; skipped events are always shown (on stderr). */
  verbose?: boolean;
}

export class Renderer {
  private readonly c: ChalkInstance;
  private readonly e: ChalkInstance;
  /** Event lines not written yet: under load, one write per turn of the event loop, not per event. */
  private pending: string[] = [];
  private flushScheduled = false;

  constructor(private readonly o: RendererOptions) {
    this.c = chalkFor(o.color);
    this.e = chalkFor(o.stderrColor);
  }

  report(report: Report): void {
    switch (report.kind) {
      case 'delivery':
        this.pending.push(this.eventLine(report));
        if (!this.flushScheduled) {
          this.flushScheduled = true;
          setImmediate(() => this.flush());
        }
        return;
      case 'rejected':
        this.o.stderr.write(
          `${this.e.dim(clock(report.receivedAt))}  ${this.e.red(`rejected ${report.answer}`)}  ${clean(report.message)}` +
            `${report.deliveryId ? `  (claims delivery ${clean(report.deliveryId)})` : ''}  from ${clean(report.remote)}; not forwarded\n`,
        );
        return;
      case 'stray':
        this.o.stderr.write(
          `${this.e.dim(clock(report.receivedAt))}  ${this.e.yellow(`answered ${report.answer}`)}  ${clean(report.method)} ${clean(report.path || '/')}: not the webhook path or method\n`,
        );
        return;
      case 'filtered':
        this.o.stderr.write(
          `${this.e.dim(clock(report.receivedAt))}  ${this.e.dim(`${clean(report.event ?? '?')} skipped (not in --events): answered 200, not forwarded`)}\n`,
        );
        return;
    }
  }

  eventLine(r: DeliveryReport): string {
    switch (this.o.format) {
      case 'json':
        return jsonLine(r);
      case 'tsv':
        return `${tsvFields(r)
          .map((f) => singleLine(f))
          .join('\t')}\n`;
      case 'human':
        return this.humanLine(r);
    }
  }

  private humanLine(r: DeliveryReport): string {
    const c = this.c;
    const s = r.summary;
    const parts: string[] = [c.dim(clock(r.receivedAt))];
    if (!r.verified) parts.push(c.bgRed.white(' UNVERIFIED '));
    let name = c.bold(clean(s.event ?? '(not an event)'));
    if (s.test) name += ` ${c.cyan('[test]')}`;
    if (r.synthetic) name += ` ${c.magenta('[synthetic]')}`;
    if (r.replay) name += ` ${c.cyan(r.replay.edited ? '[edited replay]' : '[replay]')}`;
    else if (s.event !== null && !s.known) name += ` ${c.yellow('[unknown event]')}`;
    parts.push(name);
    if (s.orderId !== null) parts.push(`order ${clean(s.orderId)}`);
    const to = s.status === null ? '?' : statusStyle(s.status, c)(clean(s.status));
    parts.push(`${s.previousStatus === null ? '–' : clean(s.previousStatus)} → ${to}`);
    if (s.amount !== null) parts.push(`${clean(s.amount)}${s.currency ? ` ${clean(s.currency)}` : ''}`);
    parts.push(c.dim(clean(r.deliveryId ?? 'no delivery id')));
    parts.push(this.outcome(r));
    return `${parts.join('  ')}\n`;
  }

  private outcome(r: DeliveryReport): string {
    const c = this.c;
    if (r.duplicate) return c.yellow('duplicate of a delivery already done: acknowledged 200, not forwarded');
    const fwd = r.forward;
    if (!fwd) return c.green(`acknowledged ${r.answer}`);
    const ms = `${Math.round(fwd.result.latencyMs)} ms`;
    if (fwd.result.ok) return c.green(`→ app ${fwd.result.status} (${ms})`);
    const why = 'error' in fwd.result ? fwd.result.error : `app ${fwd.result.status}`;
    if (r.replay) return c.red(`→ ${clean(why)} (${ms})`);
    return c.red(`→ ${clean(why)} (${ms}); answered ${r.answer} so the service retries`);
  }

  flush(): void {
    this.flushScheduled = false;
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.o.stdout.write(text);
  }

  /** The Ctrl-C summary, on stderr. */
  summary(stats: ReceiverStats): void {
    this.flush();
    const failed = stats.forwardFailed > 0 ? ` (${stats.forwardFailed} not accepted by the app)` : '';
    this.o.stderr.write(
      `Stopped. ${plural(stats.received, 'delivery', 'deliveries')} received: ${stats.forwarded} forwarded${failed}, ` +
        `${plural(stats.duplicates, 'duplicate', 'duplicates')}, ${stats.rejected} rejected, ${stats.filtered} filtered out.\n`,
    );
  }
}

/** The --json line of one event: what arrived, what was done, and the event itself. */
export function eventJson(r: DeliveryReport) {
  const s = r.summary;
  const fwd = r.forward;
  return {
    received_at: r.receivedAt.toISOString(),
    delivery_id: r.deliveryId,
    event: s.event,
    known_event: s.known,
    test: s.test,
    verified: r.verified,
    duplicate: r.duplicate,
    synthetic: r.synthetic,
    replay: r.replay ? { of: r.replay.of, edited: r.replay.edited, signed: r.replay.signed } : null,
    order_id: s.orderId !== null && /^\d+$/.test(s.orderId) ? Number(s.orderId) : s.orderId,
    previous_status: s.previousStatus,
    status: s.status,
    amount: s.amount,
    currency: s.currency,
    occurred_at: s.occurredAt,
    answer: r.answer,
    forward: fwd
      ? {
          url: fwd.url,
          status: fwd.result.status === 0 ? null : fwd.result.status,
          latency_ms: Math.round(fwd.result.latencyMs * 10) / 10,
          error: 'error' in fwd.result ? fwd.result.error : null,
        }
      : null,
    payload: s.payload ?? null,
  };
}

/**
 * The --json line. The payload is the body's own text when that is one line of JSON (it
 * parsed, so it is valid), which spares serialising every event a second time.
 */
function jsonLine(r: DeliveryReport): string {
  const { payload, ...rest } = eventJson(r);
  const raw = r.summary.text;
  const inline = r.summary.payload !== undefined && !/[\n\r]/.test(raw);
  return `${JSON.stringify(rest).slice(0, -1)},"payload":${inline ? raw.trim() : JSON.stringify(payload)}}\n`;
}

function tsvFields(r: DeliveryReport): string[] {
  const s = r.summary;
  const fwd = r.forward;
  const outcome = r.duplicate
    ? 'duplicate'
    : !fwd
      ? 'acknowledged'
      : fwd.result.ok
        ? 'forwarded'
        : 'app_failed';
  return [
    r.receivedAt.toISOString(),
    s.event ?? '',
    s.orderId ?? '',
    s.previousStatus ?? '',
    s.status ?? '',
    s.amount ?? '',
    s.currency ?? '',
    r.deliveryId ?? '',
    outcome,
    String(r.answer),
    fwd && fwd.result.status !== 0 ? String(fwd.result.status) : '',
    fwd ? String(Math.round(fwd.result.latencyMs)) : '',
    r.synthetic ? 'synthetic' : r.replay ? (r.replay.edited ? 'edited_replay' : 'replay') : '',
  ];
}

/** The tool's one date form for people (UTC, zone shown), with seconds: deliveries come seconds apart. */
function clock(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** Text from outside goes to a terminal: no control characters, one line, bounded. */
function clean(value: string): string {
  const line = singleLine(value);
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}
