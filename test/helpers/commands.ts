// Every command the descriptions declare (src/commands/groups.ts, src/commands/verb.ts), walked
// from GROUPS: the tests that must cover every command read them here, so a new command is
// covered without editing a list.

import { GROUPS } from '../../src/commands/groups.js';
import { type Group, isRunnable, type Runnable } from '../../src/commands/verb.js';

/** Every group, its groups' groups too (billing emulator webhooks), with its words on the command line. */
export async function groups(): Promise<{ path: string[]; group: Group }[]> {
  const all: { path: string[]; group: Group }[] = [];
  const walk = async (group: Group, parent: string[]) => {
    const path = [...parent, group.name];
    all.push({ path, group });
    if (!('verbs' in group)) return;
    for (const entry of await group.verbs()) if (!isRunnable(entry)) await walk(entry, path);
  };
  for (const group of Object.values(GROUPS)) await walk(group, []);
  return all;
}

/** Every command that runs, with its words on the command line (orders list, search). */
export async function described(): Promise<{ path: string[]; runnable: Runnable }[]> {
  const all: { path: string[]; runnable: Runnable }[] = [];
  for (const { path, group } of await groups()) {
    if ('verb' in group) all.push({ path, runnable: await group.verb() });
    else if ('command' in group) all.push({ path, runnable: group.command });
    else
      for (const runnable of (await group.verbs()).filter(isRunnable))
        all.push({ path: [...path, runnable.verb.name], runnable });
  }
  return all;
}
