// The part of the suite whose outcome can depend on the Node that runs it, which .ci/run runs on
// every Node of the matrix (the whole suite runs on the first). What changes between Nodes is
// Node's own code, not the language: process start and module loading, fetch (undici), the http
// server, streams and backpressure, fs (modes, renames, fsync, a full disk), signals, child
// processes, terminals, and npm's install of the package. Each entry is a file or folder that
// drives one of those surfaces through the built CLI or the emulator's server; the rest of the
// suite checks rules (money, formats, finding, the emulator's model, docs) through the same
// surfaces, which these already hold to each Node. test/setup/parts.test.ts checks that every
// path here exists. (The single executable is built from the node24 binary whatever Node runs
// the suite: test/sea runs once, with the whole suite.) A file whose surface another entry
// already drives is not here: webhooks listen's server and HMAC are test/webhooks/receiver's
// (the same transport, over real HTTP), the checkout page server is served, fetched and stopped
// by tty/interrupt (Chromium is the same on every Node), screens' width on a pseudo-terminal is
// terminal-tables' (the cheaper of the two), hostile/bounds' streamed bound is hostile/answers',
// and the pty helper runs under every terminal test (docs/decisions.md, "Issue 35 §5, round 5:
// the end-to-end files").

/** Paths (files, or folders ending in /) given to vitest as filters, each with what it holds to the Node. */
export const NODE_DEPENDENT = [
  { path: 'test/package/', why: 'npm pack and a global install, the installed bin run by this Node' },
  { path: 'test/tty/', why: 'a real terminal: raw mode, Ctrl-C, spinners, prompts' },
  { path: 'test/e2e/interrupt.test.ts', why: 'SIGINT and SIGTERM mid-run' },
  { path: 'test/e2e/prompts.test.ts', why: 'prompts on a terminal and on a pipe' },
  { path: 'test/e2e/cli-basics.test.ts', why: 'help, exit codes, stdout and stderr of the process' },
  {
    path: 'test/e2e/output-contract.test.ts',
    why: 'every command writing its streams (EPIPE, closed stdout)',
  },
  {
    path: 'test/e2e/terminal-tables.test.ts',
    why: "a terminal's width: tables on pseudo-terminals of 60 and 120 columns",
  },
  { path: 'test/e2e/emulator-command.test.ts', why: 'the emulator as a process: start, --detach, stop' },
  { path: 'test/commands/emulator/start.test.ts', why: 'the emulator started, detached and signalled' },
  { path: 'test/api/client.test.ts', why: 'fetch: timeouts, retries, redirects, bodies, sockets' },
  { path: 'test/api/paginate.test.ts', why: 'concurrent requests and streamed output' },
  { path: 'test/hostile/answers.test.ts', why: 'broken services: resets, hangs, oversized and slow bodies' },
  { path: 'test/emulator/wire.test.ts', why: "the emulator's http server on one keep-alive connection" },
  { path: 'test/commands/orders/watch.test.ts', why: 'timers and polling until stopped' },
  { path: 'test/webhooks/receiver.test.ts', why: 'raw bodies and HMAC over the http server' },
  { path: 'test/mcp/mcp.test.ts', why: 'the MCP server over stdio' },
  { path: 'test/safety/owner.test.ts', why: 'processes and files of another user (/proc, uids)' },
  { path: 'test/safety/machine-failures.test.ts', why: 'a full disk, a read-only disk, killed processes' },
  {
    path: 'test/payments/journal-faults.test.ts',
    why: 'the journal: fsync, renames, locks, a crash mid-write',
  },
  { path: 'test/config/store.test.ts', why: 'config files: modes, owners, atomic writes' },
  { path: 'test/emulator/persistence.test.ts', why: "the emulator's state file" },
];
