import { ApiError } from '../api/errors.js';
import { BillingError, type ErrorDetail } from '../errors.js';
import { chalkFor } from './color.js';
import { safeLine, safeText } from './terminal.js';

// Besides the secrets this process holds (./terminal.ts hides those by value), anything in an
// error that merely looks like a credential is hidden too: the service may echo someone's.
const LOOKS_SECRET: [RegExp, string][] = [
  [/\bBearer\s+\S+/gi, 'Bearer ***'],
  [/\b(?:sk|whsec)_[A-Za-z0-9_]+/g, '***'],
];

/** Hides the secrets we hold and anything that looks like a token or a signing secret. */
export function redact(value: string): string {
  return LOOKS_SECRET.reduce((t, [pattern, replacement]) => t.replace(pattern, replacement), value);
}

/**
 * Safe for one line of stderr: no secrets, no control characters. Our own messages may wrap
 * (commander's "Did you mean"), so their line breaks become spaces; in text from the service
 * a line break is shown escaped, so that it cannot print a line that looks like ours.
 */
function oneLine(value: string, fromService = true): string {
  const text = fromService ? value.trim() : value.trim().replace(/\s*[\r\n]+\s*/g, ' ');
  return redact(safeLine(text));
}

function multiLine(value: string): string {
  return redact(safeText(value));
}

function isBillingError(err: unknown): err is BillingError {
  if (err instanceof BillingError) return true;
  // A second copy of the module (tests, bundling) still gives errors of this shape.
  const e = err as { kind?: unknown; exitCode?: unknown } | null;
  return err instanceof Error && typeof e?.kind === 'string' && typeof e.exitCode === 'number';
}

function apiFields(err: unknown): { status: number; details: ErrorDetail[]; method?: string; path?: string } {
  if (err instanceof ApiError) return err;
  const e = err as Partial<ApiError> | null;
  return {
    status: typeof e?.status === 'number' ? e.status : 0,
    details: Array.isArray(e?.details) ? e.details : [],
    method: typeof e?.method === 'string' ? e.method : undefined,
    path: typeof e?.path === 'string' ? e.path : undefined,
  };
}

function messageOf(err: unknown): string {
  if (err instanceof Error) {
    if (err.message) return err.message;
    // A refused connection can come as an AggregateError with no message of its own (one per address tried).
    const inner = (err as { errors?: unknown }).errors;
    if (Array.isArray(inner) && inner[0] instanceof Error && inner[0].message) return inner[0].message;
    return err.name || 'unexpected error';
  }
  if (typeof err === 'string' && err) return err;
  try {
    const json = JSON.stringify(err);
    if (json && json !== '{}') return json;
  } catch {
    // fall through
  }
  return 'unexpected error';
}

function detailLine(d: ErrorDetail): string {
  const field = typeof d.field === 'string' && d.field ? `${oneLine(d.field)}: ` : '';
  return `${field}${oneLine(String(d.message ?? ''))}`;
}

/**
 * A stack whose message is shown as one line: the message may be the service's, and a line
 * break in it must not start a line that looks like one of ours (or like a stack frame).
 */
function stackOf(err: Error, fromService: boolean): string {
  const frames = (err.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return [
    `${oneLine(err.name || 'Error', false)}: ${oneLine(messageOf(err), fromService)}`,
    ...frames.map(multiLine),
  ].join('\n');
}

function debugLines(err: unknown): string[] {
  const lines: string[] = [];
  if (err instanceof Error && err.stack) lines.push(stackOf(err, apiFields(err).status > 0));
  const api = apiFields(err);
  if (api.method && api.path) {
    lines.push(
      `request: ${api.method} ${oneLine(api.path)} → ${api.status === 0 ? 'no answer' : api.status}`,
    );
  }
  let cause = err instanceof Error ? err.cause : undefined;
  for (let depth = 0; cause !== undefined && depth < 5; depth++) {
    const text = cause instanceof Error ? stackOf(cause, true) : oneLine(messageOf(cause));
    lines.push(`caused by: ${text}`);
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return lines;
}

/**
 * The whole stderr text for an error, ending in '\n'. With json, exactly one line:
 * {"error":{"status":…,"kind":…,"message":…,"details":[…]}}.
 */
export function formatError(err: unknown, o: { json: boolean; color: boolean; debug: boolean }): string {
  const known = isBillingError(err);
  const api = apiFields(err);
  if (o.json) {
    const error = {
      status: api.status > 0 ? api.status : null,
      kind: known ? err.kind : 'unexpected',
      message: oneLine(messageOf(err), api.status > 0),
      details: api.details.map((d) =>
        typeof d.field === 'string' && d.field
          ? { field: oneLine(d.field), message: oneLine(String(d.message ?? '')) }
          : { message: oneLine(String(d.message ?? '')) },
      ),
    };
    return `${JSON.stringify({ error })}\n`;
  }

  const c = chalkFor(o.color);
  const lines = [`${c.red('error:')} ${oneLine(messageOf(err), api.status > 0)}`];
  for (const detail of api.details) lines.push(`  - ${detailLine(detail)}`);
  if (known && err.hint) lines.push(`${c.yellow('hint:')} ${oneLine(err.hint, false)}`);
  if (o.debug) lines.push(...debugLines(err));
  else if (!known) lines.push('run again with --debug for details');
  return `${lines.join('\n')}\n`;
}
