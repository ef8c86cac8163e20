// The floors of src/ (docs/tree.md draws them) as import rules; `npm test` runs
// `depcruise src` and fails on any break. Paths are resolved files, not import strings, and
// type-only imports count (tsPreCompilationDeps): a type pulled from a higher floor ties the
// floors together just as much as a value does.

/**
 * Subsystems of the emulator: every folder of src/emulator/ other than http/ and model/
 * (index.ts starts the server; program.ts, above it, is the package's `billing/emulator`).
 */
const EMULATOR_SUBSYSTEM = '^src/emulator/(?!http/|model/|index\\.ts$|program\\.ts$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // ---- the CLI side: cli.ts, cli/ -> commands/ -> mcp/ -> cli/kit/ -> ops/ -> webhooks/ -> config/, format/ -> api/ -> domain/
    {
      name: 'domain-is-the-ground',
      comment: 'src/domain (money, order statuses, the local emulator address) imports nothing else of src.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'api-below-the-cli',
      comment:
        'src/api (the API core: never prints, never reads config) never imports the commands, the CLI, ' +
        'format, config, webhooks or the emulator.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: '^src/(cli\\.ts$|cli/|commands/|mcp/|ops/|format/|config/|webhooks/|emulator/)' },
    },
    {
      name: 'config-and-format-below-commands',
      comment:
        'src/config and src/format serve the commands; they never import them, the CLI, the operations, webhooks or the emulator.',
      severity: 'error',
      from: { path: '^src/(config|format)/' },
      to: { path: '^src/(cli\\.ts$|cli/|commands/|mcp/|ops/|webhooks/|emulator/)' },
    },
    {
      name: 'webhooks-below-commands',
      comment:
        'src/webhooks (events, signatures, the receiver) never imports the commands, the CLI, the operations or the emulator.',
      severity: 'error',
      from: { path: '^src/webhooks/' },
      to: { path: '^src/(cli\\.ts$|cli/|commands/|mcp/|ops/|emulator/)' },
    },
    {
      name: 'ops-below-the-commands',
      comment:
        'src/ops (the operations the CLI and the MCP server both call, and the Runtime they are handed) never ' +
        'imports a command, the CLI, its kit or the MCP server.',
      severity: 'error',
      from: { path: '^src/ops/' },
      to: { path: '^src/(cli\\.ts$|cli/|commands/|mcp/)' },
    },
    {
      name: 'kit-below-the-commands',
      comment:
        'src/cli/kit (what every command uses: the description, results, prompts, lists) never imports a command, ' +
        'the program or help of src/cli, or the MCP server.',
      severity: 'error',
      from: { path: '^src/cli/kit/' },
      to: { path: '^src/(cli\\.ts$|cli/(?!kit/)|commands/|mcp/)' },
    },
    {
      name: 'mcp-below-the-cli',
      comment:
        'The MCP server (src/mcp) never imports the program or help of src/cli; of the CLI it uses the kit alone.',
      severity: 'error',
      from: { path: '^src/mcp/' },
      to: { path: '^src/(cli\\.ts$|cli/(?!kit/))' },
    },
    {
      name: 'mcp-calls-operations',
      comment:
        'An MCP tool calls operations (src/ops), never a command: of src/commands it reads only the descriptions ' +
        "listed here, which hold no code (its input is made from its command's flags); every other file there is " +
        'or leads to command code (a command file holds its description and its code: <verb>.ts, index.ts, ' +
        'run.ts). The one exception: src/mcp/reads.ts, whose read tools run their command and take its -o json ' +
        '(docs/tree.md).',
      severity: 'error',
      from: { path: '^src/mcp/', pathNot: '^src/mcp/reads\\.ts$' },
      to: {
        path: '^src/commands/',
        pathNot:
          '^src/commands/(orders/(cancel|pause|resume)|payments/(capture|refund|reverse)|links/email|mcp/mcp)\\.ts$',
      },
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
      name: 'commands-below-the-cli',
      comment:
        'src/commands declare and parse the commands src/cli.ts and src/cli/ build; of src/cli they import the kit alone.',
      severity: 'error',
      from: { path: '^src/commands/' },
      to: { path: '^src/(cli\\.ts$|cli/(?!kit/))' },
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

    // The errors everything shares (UsageError, ConfigError, the exit-code table …) are in
    // src/errors.ts, below the API core. (src/format still imports src/api/errors.ts: it
    // renders ApiError, an error of talking to the service, which stays in src/api.)
    {
      name: 'shared-errors-below-the-api',
      comment:
        'cli.ts, cli/ (but its kit, which commands use to read and write records) and config/ take the shared ' +
        'errors from src/errors.ts; they never import src/api.',
      severity: 'error',
      from: { path: '^src/(cli\\.ts$|cli/(?!kit/)|config/)' },
      to: { path: '^src/api/' },
    },
    {
      name: 'errors-at-the-ground',
      comment: 'src/errors.ts sits beside src/domain: it imports nothing of src but src/domain.',
      severity: 'error',
      from: { path: '^src/errors\\.ts$' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
