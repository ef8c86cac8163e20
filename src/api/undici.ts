// The two parts of undici that the client uses, imported by their own paths (undici has no
// "exports" map): the Agent (keep-alive pools per origin) and the request() of its API.
// undici's index also loads fetch, WebSocket, EventSource, the mock agents, the cache and
// the interceptors, and reads globalThis.Headers, which makes Node load its own copy of
// undici: bundled, the index is 1 MB to compile, these two 0.5 MB.
//
// It also keeps V8 from optimising undici's HTTP parser in the background, see
// holdParserTier().

import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import type { Dispatcher } from 'undici';
import apiRequest from 'undici/lib/api/api-request.js';
import Agent from 'undici/lib/dispatcher/agent.js';

/** A keep-alive Agent, as `new undici.Agent(options)`. */
export function createAgent(options: Agent.Options): Dispatcher {
  const agent = new Agent(options);
  holdParserTier(agent);
  return agent;
}

/** undici's request() on a given dispatcher, as `undici.request(url, { dispatcher })`. */
export function request(
  dispatcher: Dispatcher,
  options: Dispatcher.RequestOptions,
): Promise<Dispatcher.ResponseData> {
  const response = apiRequest.call(dispatcher, options);
  if (release) response.then(release, release);
  return response;
}

// undici parses HTTP with llhttp, compiled to WebAssembly when the first connection opens.
// V8 compiles it with its baseline compiler (Liftoff) and, once a function has run enough
// (V8's --wasm-tiering-budget; parsing one answer is enough), recompiles it with TurboFan on
// a background thread: ~100 ms of CPU for llhttp's parser. A process that exits meanwhile
// waits for that compilation: 70 to 150 ms after the last answer, on a command that is
// otherwise done in 50 ms. The baseline code is fast enough for a CLI (10,000 orders read
// no slower), so the budget is raised out of reach while undici creates the parser's
// instance (one per process, on the first connection), then put back: V8 gives an instance
// its budget when it creates it.
//
// Put back exactly, because V8 marks its code caches (Node's own, for its built-in
// modules, and the one bin/billing keeps) with a hash of the flags that differ from their
// defaults, and rejects them while the hash differs. The default budget depends on the V8
// version, so the one that restores the hash is found with a tiny cached script compiled
// before the change.

const HELD_BUDGET = 2_000_000_000;
/** V8's default budget: 1,800,000 in Node 20's V8, 13,000,000 in recent ones. */
const DEFAULT_BUDGETS = [1_800_000, 13_000_000];
let release: (() => void) | undefined;
let held = false;

function holdParserTier(agent: Dispatcher): void {
  if (held) return;
  held = true;
  // Someone who sets the budget themselves keeps it.
  if (process.execArgv.some((arg) => /wasm[-_]tiering[-_]budget/.test(arg))) return;
  let probe: Buffer;
  try {
    probe = new Script('0', { filename: 'billing:v8-flags' }).createCachedData();
    setFlagsFromString(`--wasm-tiering-budget=${HELD_BUDGET}`);
  } catch {
    return;
  }
  let sources = 0;
  release = () => {
    if (!release) return;
    release = undefined;
    agent.off('connect', onConnect);
    for (const budget of DEFAULT_BUDGETS) {
      setFlagsFromString(`--wasm-tiering-budget=${budget}`);
      // Another source of the same length each time: V8 would otherwise reuse the script.
      sources += 1;
      const script = new Script(String(sources), { filename: 'billing:v8-flags', cachedData: probe });
      if (!script.cachedDataRejected) return;
    }
  };
  // The parser is created in the same turn as the connection, before this event.
  const onConnect = () => release?.();
  agent.on('connect', onConnect);
}
