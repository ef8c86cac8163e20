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
    // ---- the CLI side: cli.ts, cli/ -> commands/ -> webhooks/ -> config/, format/ -> api/ -> domain/
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
      to: { path: '^src/(cli\\.ts$|cli/|commands/|format/|config/|webhooks/|emulator/)' },
    },
    {
      name: 'config-and-format-below-commands',
      comment:
        'src/config and src/format serve the commands; they never import them, the CLI, webhooks or the emulator.',
      severity: 'error',
      from: { path: '^src/(config|format)/' },
      to: { path: '^src/(cli\\.ts$|cli/|commands/|webhooks/|emulator/)' },
    },
    {
      name: 'webhooks-below-commands',
      comment:
        'src/webhooks (events, signatures, the receiver) never imports the commands, the CLI or the emulator.',
      severity: 'error',
      from: { path: '^src/webhooks/' },
      to: { path: '^src/(cli\\.ts$|cli/|commands/|emulator/)' },
    },
    {
      name: 'commands-below-the-cli',
      comment: 'src/commands run what src/cli.ts and src/cli/ declare; they never import the declarations.',
      severity: 'error',
      from: { path: '^src/commands/' },
      to: { path: '^src/(cli\\.ts$|cli/)' },
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
        'cli.ts, cli/ and config/ take the shared errors from src/errors.ts; they never import src/api.',
      severity: 'error',
      from: { path: '^src/(cli\\.ts$|cli/|config/)' },
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
