// Every group and top-level command, in the order of `billing --help`: the top-level commands
// declared by descriptions (src/cli/kit/verb.ts) and the groups of ./groups.ts. A run that the
// manifest declares loads this file only for a top-level command (src/cli.ts `groupNamed`).

import { command, type Group } from '../cli/kit/verb.js';
import { apiVerb } from './api/api.js';
import { completionVerb } from './completion/completion.js';
import { FOLDER_GROUPS } from './groups.js';
import { loginVerb } from './login/login.js';
import { logoutVerb } from './logout/logout.js';
import { mcpVerb } from './mcp/mcp.js';
import { SEARCH_SUMMARY } from './search/line.js';
import { statusVerb } from './status/status.js';

export const GROUPS = {
  login: {
    name: loginVerb.name,
    summary: loginVerb.summary,
    command: command(loginVerb, async () => (await import('./login/run.js')).login),
  },
  logout: {
    name: logoutVerb.name,
    summary: logoutVerb.summary,
    command: command(logoutVerb, async () => (await import('./login/run.js')).logout),
  },
  status: {
    name: statusVerb.name,
    summary: statusVerb.summary,
    command: command(statusVerb, async () => (await import('./login/run.js')).status),
  },
  search: {
    name: 'search',
    summary: SEARCH_SUMMARY,
    verb: async () =>
      command(
        (await import('./search/search.js')).searchVerb,
        async () => (await import('./search/run.js')).search,
      ),
  },
  ...FOLDER_GROUPS,
  mcp: {
    name: mcpVerb.name,
    summary: mcpVerb.summary,
    verb: async () => command(mcpVerb, async () => (await import('../mcp/index.js')).mcp),
  },
  api: {
    name: apiVerb.name,
    summary: apiVerb.summary,
    command: command(apiVerb, async () => (await import('./api/run.js')).api),
  },
  completion: {
    name: completionVerb.name,
    summary: completionVerb.summary,
    command: command(completionVerb, async () => (await import('./completion/run.js')).script),
  },
} as const satisfies Record<string, Group>;
