// The commands an entry of the table of actions declares alone (its `summary`): ids or --file,
// one id a batch of one, their code the action's batch (./many.ts). A new batch action is its
// entry and its code; its command, flags, help and dry run follow (docs/tree.md).

import { ACTIONS, type ActionEntry, type ActionName } from '../../ops/batch/action-table.js';
import { PRODUCTION_GUARD } from './help-text.js';
import { type Group, type Handler, isRunnable, type Runnable, resolveEntry, type VerbSpec } from './verb.js';

/** The commands of `group` declared by the table and not by a description of their own. */
export function actionVerbs(group: string, declared: readonly string[]): Runnable[] {
  return (Object.keys(ACTIONS) as ActionName[]).flatMap((name) => {
    const entry: ActionEntry = ACTIONS[name];
    const [of, verbName] = entry.command.split(' ') as [string, string];
    if (of !== group || entry.summary === undefined || declared.includes(verbName)) return [];
    return [actionCommand(name)];
  });
}

/** The command an entry of the table of actions declares: ids or --file, its code the action's batch. */
export function actionCommand(name: ActionName): Runnable {
  const entry: ActionEntry = ACTIONS[name];
  const verbName = entry.command.split(' ')[1] as string;
  const description: VerbSpec = {
    name: verbName,
    summary: entry.summary ?? '',
    args: [{ name: '[ids...]', help: `${entry.on} ids (one is a batch of one)` }],
    examples: entry.examples ?? [],
    help: PRODUCTION_GUARD,
    output: 'answer',
    // An action sends a link (a message to the customer) or moves money on an order or payment.
    moves: /^send\w+Link$/.test(entry.request) ? 'message' : 'money',
    batch: name,
  };
  const load = async () => (await import('./many.js')).handlerOf(name) as Handler<never>;
  return { verb: description, load };
}

/**
 * A group's verbs and groups, in the order of its help: those its `verbs` lists, then the
 * commands the table of actions declares in it. Commander's declaration (src/cli/build.ts)
 * and the reference of every command (docs/commands.md) both read a group through this.
 */
export async function entriesOf(group: Extract<Group, { verbs: unknown }>): Promise<(Runnable | Group)[]> {
  const entries = await Promise.all((await group.verbs()).map(resolveEntry));
  const declared = entries.filter(isRunnable).map((v) => v.verb.name);
  return [...entries, ...actionVerbs(group.name, declared)];
}
