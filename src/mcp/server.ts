// The protocol's server over stdio (the official SDK, loaded only by `billing mcp`): the read
// tools always, the write tools of the families allowed. stdout is the protocol's alone:
// everything for people goes to stderr. A tool never crashes the server: whatever it throws
// comes back as a tool error.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { UsageError } from '../errors.js';
import type { Runtime } from '../ops/runtime/runtime.js';
import { version } from '../version.js';
import { printed } from './capture.js';
import { BoundedStdioTransport } from './stdio.js';
import { answer, COMMANDS_META, type ToolAnswer, type ToolSpec, toolError } from './tool.js';

/**
 * A read's answer: what the tool makes of the command's -o json (./compact.ts), with the
 * command's stderr lines (pages read, warnings) as notes; the text is the same JSON, unindented.
 */
async function read(rt: Runtime, spec: ToolSpec, args: Record<string, unknown>, signal: AbortSignal) {
  const run = spec.run as NonNullable<ToolSpec['run']>;
  const out = await printed(rt, signal, (call) => run(call, args));
  const printedJson = JSON.parse(out.json.trim() === '' ? 'null' : out.json);
  const data: Record<string, unknown> = spec.shape ? spec.shape(printedJson, args) : { result: printedJson };
  if (out.notes.length > 0) data.notes = out.notes;
  return answer(data);
}

/** The longest text an argument may be: no id, e-mail or search is longer, and no answer echoes more. */
export const ARGUMENT_CHARS = 256;

/** A text argument longer than ARGUMENT_CHARS is refused by its name and length, never echoed. */
function refuseLongArguments(args: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(args ?? {})) {
    const texts = Array.isArray(value) ? value : [value];
    const long = texts.find((v): v is string => typeof v === 'string' && v.length > ARGUMENT_CHARS);
    if (long !== undefined) {
      throw new UsageError(
        `${name.slice(0, 64)} is ${long.length} characters long: an argument may be at most ${ARGUMENT_CHARS}`,
      );
    }
  }
}

export async function serve(
  rt: Runtime,
  tools: readonly ToolSpec[],
  instructions: string,
  /** Told of every call and its answer, reads included (the session's log, for --audit). */
  onCall?: (spec: ToolSpec, args: Record<string, unknown>, answer: ToolAnswer) => Promise<void>,
): Promise<void> {
  // The session's writes were allowed at start (--allow; on production --allow-live, ../mcp/index.ts):
  // that is their confirmation. Under --dry-run a write tool answers with the request it did not send.
  rt.writes = { ...rt.writes, confirmed: true, quiet: true };
  const server = new McpServer({ name: 'billing', version }, { instructions });
  for (const spec of tools) {
    server.registerTool(
      spec.name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema: spec.input,
        _meta: { [COMMANDS_META]: spec.commands },
        annotations: {
          title: spec.title,
          readOnlyHint: !spec.write,
          destructiveHint: spec.write === true,
          idempotentHint: true,
          openWorldHint: false,
        },
      },
      async (args: Record<string, unknown>, extra: { signal: AbortSignal }): Promise<ToolAnswer> => {
        const signal = AbortSignal.any([rt.signal, extra.signal]);
        let result: ToolAnswer;
        try {
          refuseLongArguments(args);
          result = spec.act ? await spec.act(args, signal) : await read(rt, spec, args, signal);
        } catch (err) {
          result = toolError(err);
        }
        await onCall?.(spec, args, result).catch(() => {});
        return result;
      },
    );
  }
  const transport = new BoundedStdioTransport(rt.io.stdin, rt.io.stdout);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  await server.connect(transport);
  // The client went away (stdin ended) or Ctrl-C: stop taking calls; the one in flight finishes.
  const stop = () => void server.close();
  rt.io.stdin.once('end', stop);
  rt.signal.addEventListener('abort', stop, { once: true });
  try {
    await closed;
  } finally {
    rt.io.stdin.off('end', stop);
    rt.signal.removeEventListener('abort', stop);
  }
}
