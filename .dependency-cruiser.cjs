// The floors of src/ (docs/tree.md draws them) as import rules; `npm test` runs
// `depcruise src` and fails on any break. Paths are resolved files, not import strings, and
// type-only imports count (tsPreCompilationDeps): a type pulled from a higher floor ties the
// floors together just as much as a value does.

/**
 * Subsystems of the emulator: every folder of src/emulator/ other than http/ and model/
 * (index.ts starts the server; program.ts, above it, is the package's `billing/emulator`).
 */
const EMULATOR_SUBSYSTEM = '^src/emulator/(?!http/|model/|index\\.ts$|program\\.ts$)';

/**
 * The floors of the CLI side, top to bottom: each its files (`path`) and all it may import of
 * src/ (`may`, by name: a floor, or the emulator). This is the one statement of them: the
 * `<floor>-floor` rules below are made from it, and docs/tree.md's "May import" column must
 * say the same (test/setup/floors.test.ts). Finer rules (one entry of the MCP server, the
 * emulator reached from its command alone, the MCP tools reading descriptions, not code) follow.
 */
const FLOORS = {
  cli: {
    what: 'src/cli.ts and src/cli/ (but its kit): the commander program and its help',
    path: '^src/(cli\\.ts$|cli/(?!kit/))',
    may: ['commands', 'kit', 'ops', 'config', 'format', 'errors', 'version', 'domain'],
  },
  commands: {
    what: 'src/commands: what declares and parses the commands',
    path: '^src/commands/',
    may: [
      'mcp',
      'kit',
      'ops',
      'webhooks',
      'config',
      'format',
      'api',
      'errors',
      'version',
      'domain',
      'emulator',
    ],
  },
  mcp: {
    what: 'src/mcp: the MCP server',
    path: '^src/mcp/',
    may: ['commands', 'kit', 'ops', 'webhooks', 'config', 'format', 'api', 'errors', 'version', 'domain'],
  },
  kit: {
    what: 'src/cli/kit: what every command uses (the description, results, prompts, lists)',
    path: '^src/cli/kit/',
    may: ['ops', 'webhooks', 'config', 'format', 'api', 'errors', 'version', 'domain'],
  },
  ops: {
    what: 'src/ops: the operations the CLI and the MCP server both call, and the Runtime they are handed',
    path: '^src/ops/',
    may: ['webhooks', 'config', 'format', 'api', 'errors', 'version', 'domain'],
  },
  webhooks: {
    what: 'src/webhooks: events, signatures, the receiver',
    path: '^src/webhooks/',
    may: ['config', 'format', 'api', 'errors', 'version', 'domain'],
  },
  config: {
    what: 'src/config: environments, their store, the variables',
    path: '^src/config/',
    may: ['format', 'errors', 'version', 'domain'],
  },
  format: {
    what: 'src/format: the output formats and the writer (it renders ApiError, so it takes src/api)',
    path: '^src/format/',
    may: ['api', 'errors', 'version', 'domain'],
  },
  api: {
    what: 'src/api: the API core (never prints, never reads config)',
    path: '^src/api/',
    may: ['errors', 'version', 'domain'],
  },
  errors: {
    what: 'src/errors.ts: the errors everything shares and the exit codes, below the API core, so that the CLI and config need not import src/api',
    path: '^src/errors\\.ts$',
    may: ['domain'],
  },
  domain: {
    what: 'src/domain: the readers, money, statuses and rules every floor shares',
    path: '^src/domain/',
    may: [],
  },
  version: {
    what: "src/version.ts: the build's version",
    path: '^src/version\\.ts$',
    may: [],
  },
};

/** What a floor may import besides the floors. */
const BESIDE = { emulator: '^src/emulator/' };

const pathOf = (name) => FLOORS[name]?.path ?? BESIDE[name];

/** One rule a floor: it imports of src/ only itself and what its `may` names. */
const floorRules = Object.entries(FLOORS).map(([name, floor]) => ({
  name: `${name}-floor`,
  comment: `${floor.what}: imports of src/ ${floor.may.length > 0 ? `only ${floor.may.join(', ')}` : 'nothing else'} (docs/tree.md).`,
  severity: 'error',
  from: { path: floor.path },
  to: { path: '^src/', pathNot: [floor.path, ...floor.may.map(pathOf)] },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // ---- the CLI side: cli.ts, cli/ -> commands/ -> mcp/ -> cli/kit/ -> ops/ -> webhooks/ -> config/ -> format/ -> api/ -> errors.ts -> domain/
    ...floorRules,
    {
      name: 'mcp-calls-operations',
      comment:
        "An MCP tool calls operations (src/ops), never a command: its input is made from its command's " +
        "declaration in the build's manifest (src/mcp/commands.ts), typed by the description (a type-only " +
        'import, which loads no code). The one exception: src/mcp/reads.ts, whose read tools run their command ' +
        'and take its -o json (docs/tree.md).',
      severity: 'error',
      from: { path: '^src/mcp/', pathNot: '^src/mcp/reads\\.ts$' },
      to: { path: '^src/commands/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'mcp-has-one-entry',
      comment:
        'The MCP server is entered through src/mcp/index.ts (`billing mcp`, which src/commands/index.ts loads); ' +
        'nothing outside src/mcp imports its tools, session or transport.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/mcp/' },
      to: { path: '^src/mcp/', pathNot: '^src/mcp/index\\.ts$' },
    },
    {
      name: 'mcp-sdk-only-in-mcp',
      comment:
        '@modelcontextprotocol/sdk and zod are loaded by `billing mcp` alone: only src/mcp imports them.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/mcp/' },
      to: { path: 'node_modules/(@modelcontextprotocol/sdk|zod)/' },
    },
    {
      name: 'cli-never-imports-the-emulator',
      comment: 'Only the code of the emulator command (src/commands/emulator/run.ts) loads the emulator.',
      severity: 'error',
      from: { path: '^src/(?!emulator/)', pathNot: '^src/commands/emulator/run\\.ts$' },
      to: { path: '^src/emulator/' },
    },
    {
      name: 'emulator-has-one-entry',
      comment: 'The emulator command goes in through src/emulator/index.ts, the only entry point.',
      severity: 'error',
      from: { path: '^src/commands/emulator/run\\.ts$' },
      to: { path: '^src/emulator/', pathNot: '^src/emulator/index\\.ts$' },
    },

    // ---- the emulator: index.ts -> http/ -> subsystems (billing/, gateway/, portal/, ...) -> model/
    {
      name: 'emulator-stands-alone',
      comment:
        'The emulator shares only src/domain and the webhook event and signature code with the CLI ' +
        '(it must sign exactly as the CLI verifies).',
      severity: 'error',
      from: { path: '^src/emulator/' },
      to: { path: '^src/', pathNot: '^src/(emulator|domain)/|^src/webhooks/(event|signature)\\.ts$' },
    },
    {
      name: 'emulator-model-is-the-ground',
      comment: 'src/emulator/model (the service and its rules) imports no subsystem and nothing of http/.',
      severity: 'error',
      from: { path: '^src/emulator/model/' },
      to: { path: '^src/emulator/', pathNot: '^src/emulator/model/' },
    },
    {
      name: 'emulator-subsystems-below-http',
      comment:
        'A subsystem (billing/, gateway/, portal/, webhooks/, faults/, outbox/, any new folder) never imports ' +
        'http/ or index.ts; what it shares with the handlers lives in model/ (reply.ts, runtime.ts).',
      severity: 'error',
      from: { path: EMULATOR_SUBSYSTEM },
      to: { path: '^src/emulator/(http/|index\\.ts$)' },
    },
    {
      name: 'emulator-http-below-index',
      comment: 'src/emulator/http never imports index.ts (which starts the server).',
      severity: 'error',
      from: { path: '^src/emulator/http/' },
      to: { path: '^src/emulator/index\\.ts$' },
    },
    {
      name: 'no-circular',
      comment: 'No import circle anywhere in src (subsystems may use each other, but one way only).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};

// For test/setup/floors.test.ts; not enumerable, so depcruise's check of its configuration does not see it.
Object.defineProperty(module.exports, 'FLOORS', { value: FLOORS, enumerable: false });
Object.defineProperty(module.exports, 'BESIDE', { value: BESIDE, enumerable: false });
