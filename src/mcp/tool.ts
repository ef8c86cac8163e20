// What a tool is, and how its result or its error becomes an answer of the protocol: a
// result as structured JSON (with the JSON text too), an error as a tool error (isError)
// carrying the CLI's message, hint and exit-code class, never a crash of the server.

import type { ZodType } from 'zod';
import { ApiError } from '../api/errors.js';
import { BillingError, EXIT } from '../errors.js';
import { safeJson, safeLine } from '../format/terminal.js';
import type { Runtime } from '../ops/runtime/runtime.js';

export interface ToolSpec {
  name: string;
  title: string;
  /** Written for a model: what it does, what it costs, that amounts are decimal strings. */
  description: string;
  /**
   * The commands it runs, as `billing help` names them ("orders get"), whose description its
   * input is made from (./flags.ts); listed to clients under `_meta` (COMMANDS_META), where
   * test/mcp/inputs.test.ts reads them to check each argument against the command's.
   */
  commands: readonly string[];
  input: Record<string, ZodType>;
  /** A write: the protocol's annotations say so (destructive, not read-only). */
  write?: boolean;
  /** A read: writes the command's -o json on rt's stdout. */
  run?(rt: Runtime, args: Record<string, unknown>): Promise<void>;
  /** A read: what it answers, made from what the command printed (./compact.ts: little by default). */
  // biome-ignore lint/suspicious/noExplicitAny: the command's JSON, whatever the service sent
  shape?(result: any, args: Record<string, unknown>): Record<string, unknown>;
  /** A write: returns its result. */
  act?(args: Record<string, unknown>, signal: AbortSignal): Promise<ToolAnswer>;
}

/** The key of a tool's `_meta` that lists the commands it runs. */
export const COMMANDS_META = 'billing/commands';

export interface ToolAnswer {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** The name of an exit code, as `billing help exit-codes` lists them (usage, not_found…). */
export function exitClass(code: number): string {
  const name = Object.entries(EXIT).find(([, c]) => c === code)?.[0] ?? 'unexpected';
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The text is JSON with the CLI's escapes (src/format/terminal.ts): no control or bidi character raw. */
export function answer(data: Record<string, unknown>, text = safeJson(JSON.stringify(data))): ToolAnswer {
  return { content: [{ type: 'text', text }], structuredContent: data };
}

/**
 * A tool error: the message the CLI would print (one line, terminal-safe), its hint, and the
 * exit code and its class, so that the assistant can relay it and tell a refusal from an outage.
 */
export function toolError(err: unknown, extra: Record<string, unknown> = {}): ToolAnswer {
  const known = err instanceof BillingError;
  const exitCode = known ? err.exitCode : EXIT.unexpected;
  const message = safeLine(
    known ? err.message : `unexpected error: ${(err as Error)?.message ?? String(err)}`,
  );
  const hint = known && err.hint ? safeLine(err.hint) : undefined;
  const status = err instanceof ApiError && err.status > 0 ? err.status : null;
  const error = {
    message,
    ...(hint ? { hint } : {}),
    kind: known ? err.kind : 'unexpected',
    exit_code: exitCode,
    exit_class: exitClass(exitCode),
    status,
    ...extra,
  };
  const text = `error: ${message}${hint ? `\nhint: ${hint}` : ''}\n(exit ${exitCode}, ${error.exit_class})`;
  return { content: [{ type: 'text', text }], structuredContent: { error }, isError: true };
}
