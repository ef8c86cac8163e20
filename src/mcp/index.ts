// billing mcp: the billing tools for an AI assistant, over the Model Context Protocol on
// stdio. Read-only unless --allow names families of writes; refunds only within the caps
// given at start; writes on production only with --allow-live; every write on the session's
// journal (printed at start), which `billing mcp --audit` shows.

import type { OptionsOf } from '../cli/kit/verb.js';
import type { mcpVerb } from '../commands/mcp/mcp.js';
import { UsageError } from '../errors.js';
import type { Runtime } from '../ops/runtime/runtime.js';
import { readCommands } from './commands.js';
import { describeGuards, parseGuards } from './guards.js';
import { readTools } from './reads.js';

export type McpFlags = OptionsOf<typeof mcpVerb>;

export async function mcp(rt: Runtime, _args: string[], flags: McpFlags): Promise<void> {
  if (flags.audit) {
    const given = [
      flags.allow?.length && '--allow',
      flags.maxRefund && '--max-refund',
      flags.maxTotal && '--max-total',
      flags.allowLive && '--allow-live',
      flags.customers && '--customers',
    ].find(Boolean);
    if (given)
      throw new UsageError(`${given} does not go with --audit`, {
        hint: 'billing mcp --audit [--journal FILE]',
      });
    const { audit } = await import('./audit.js');
    return audit(rt, flags.journal);
  }
  const guards = parseGuards(flags);
  const writes = guards.allowed.size > 0;
  if (!writes && flags.journal !== undefined) {
    throw new UsageError('--journal goes with --allow: a read-only server writes no journal');
  }
  const ctx = await rt.context();
  if (ctx.kind === 'production' && writes && !flags.allowLive) {
    throw new UsageError(
      `refusing to start with writes allowed (${[...guards.allowed].join(', ')}) on production (environment "${ctx.envName}") without --allow-live`,
      {
        hint: 'add --allow-live to let the assistant act on live orders and money within the caps, or leave out --allow for a read-only server',
      },
    );
  }
  // Not logged in, no address: said now, on stderr, rather than at the first call.
  const client = await rt.client();
  let session: import('./session.js').Session | undefined;
  try {
    const commands = await readCommands();
    const tools = readTools(commands);
    if (writes) {
      const { Session } = await import('./session.js');
      session = await Session.open(rt, flags.journal);
      const { writeTools } = await import('./writes.js');
      tools.push(...writeTools({ client, session, guards }, commands));
    }
    const where = `environment ${ctx.envName} (${ctx.kind})${ctx.profileId ? `, profile ${ctx.profileId}` : ''}`;
    rt.info(
      `billing mcp: ${tools.length} tools on stdio for ${where}; ${describeGuards(guards)}.`,
      ...(session
        ? [
            `Journal of this session: ${session.path}${session.resumed ? ' (going on with an earlier session)' : ''}`,
            `  billing mcp --audit --journal ${session.path}   shows what was done`,
          ]
        : []),
    );
    const { serve } = await import('./server.js');
    await serve(
      rt,
      tools,
      instructionsFor(describeGuards(guards)),
      session &&
        ((spec, args, answer) => (session as import('./session.js').Session).logCall(spec, args, answer)),
    );
  } finally {
    await session?.close();
  }
}

function instructionsFor(guards: string): string {
  return (
    'Tools of the Merchant Billing Service for a support agent: find a customer or order (search), read orders, ' +
    `customers and payments, and, when allowed, act on them. This session: ${guards}. ` +
    'Amounts are decimal strings ("12.50"). A write is made at most once per session for the same arguments; ' +
    'a refused call says why and sends nothing: relay that to the person.'
  );
}
