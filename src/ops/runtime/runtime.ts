// The one object every command receives: the streams and their TTY facts, the global
// flags, and lazily built config, context and API client (gh's IOStreams + Factory).

import type { ApiClient } from '../../api/client.js';
import { type Context, selectEnv } from '../../config/resolve.js';
import type { ConfigStore } from '../../config/store.js';
import { variable } from '../../config/variables.js';
import type { Moves } from '../../domain/moves.js';
import { BillingError, UsageError } from '../../errors.js';
import {
  defaultFormat,
  isOutputFormat,
  OUTPUT_FORMATS,
  type Output,
  type OutputFormat,
  shouldColor,
  traitsOf,
} from '../../format/formats.js';
import { hideSecret, safeLine } from '../../format/terminal.js';

export interface GlobalOptions {
  env?: string;
  profile?: string;
  output?: string;
  json?: boolean;
  color?: boolean; // commander's --no-color
  debug?: boolean;
  yes?: boolean;
  input?: boolean; // commander's --no-input
  baseUrl?: string;
  baseUrlV1?: string;
  gatewayUrl?: string;
  /** --csv-raw: CSV cells as they are, without the leading ' against formulas. */
  csvRaw?: boolean;
  query?: string;
  /** --query-max-mb: the bound of what --query makes, in MB. */
  queryMaxMb?: string;
  /** --settle-window SECONDS of a money move (src/cli/shared.ts settleOption). */
  settleWindow?: string;
  /** --resend-in-doubt of a batch of messages: send again the ones that may have gone. */
  resendInDoubt?: boolean;
  /** --again of a money batch: send rows the service shows done before by something else. */
  again?: boolean;
  /** --new-batch of a batch: a new batch of rows run before, on purpose (it implies --again). */
  newBatch?: boolean;
}

export interface Streams {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  /** Whether stdin is a terminal, known without building process.stdin. */
  stdinIsTTY?: boolean;
}

export class Runtime {
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly stdinIsTTY: boolean;
  readonly format: OutputFormat;
  readonly color: boolean;
  readonly stderrColor: boolean;
  /** Prompts are allowed only with a TTY on both ends, no --no-input and no CI. */
  readonly canPrompt: boolean;
  readonly debugEnabled: boolean;
  /**
   * What the running command may change at the service (its description's `moves`), whether it
   * is a dry run, its words; `confirmed` once the production guard let it write (write-guard.ts);
   * `quiet`: a dry run's write is told by its error alone (the MCP server: stdout is the protocol's).
   */
  writes: { moves: Moves; dryRun: boolean; line: string; confirmed?: boolean; quiet?: boolean } = {
    moves: 'none',
    dryRun: false,
    line: 'billing',
  };
  /** The guard before every write the client sends (write-guard.ts, set by ./run.ts): none until set. */
  beforeWrite: (request: { method: string; path: string; body?: string }) => Promise<void> = async () => {};
  /** What a money move did, once done ("Refunded 5.00 EUR of payment 1 (refund 17)"); see settleOutput. */
  moved?: string;
  private store?: ConfigStore;
  private resolved?: Context;
  private apiClient?: ApiClient;

  constructor(
    readonly io: Streams,
    readonly env: Record<string, string | undefined>,
    readonly flags: GlobalOptions,
    readonly signal: AbortSignal,
  ) {
    this.stdoutIsTTY = Boolean(io.stdout.isTTY);
    this.stderrIsTTY = Boolean(io.stderr.isTTY);
    this.stdinIsTTY = io.stdinIsTTY ?? Boolean(io.stdin.isTTY);
    this.format = pickFormat(flags, this.stdoutIsTTY);
    const noColorFlag = flags.color === false;
    this.color =
      traitsOf(this.format).shows === 'screen' && shouldColor({ noColorFlag, env, stream: io.stdout });
    this.stderrColor = shouldColor({ noColorFlag, env, stream: io.stderr });
    const ci = Boolean(env.CI) && env.CI !== 'false' && env.CI !== '0';
    this.canPrompt = flags.input !== false && !ci && this.stdinIsTTY && this.stderrIsTTY;
    this.debugEnabled = Boolean(flags.debug);
  }

  get output(): Output {
    return {
      format: this.format,
      color: this.color,
      stdout: this.io.stdout,
      tty: this.stdoutIsTTY,
      // A terminal that reports no width (0 columns: a serial console) is taken as 80, as help is.
      width: this.stdoutIsTTY ? this.io.stdout.columns || 80 : undefined,
      csvRaw: this.flags.csvRaw === true,
      query: this.flags.query,
      queryMaxBytes: parseQueryMax(this.flags.queryMaxMb),
    };
  }

  /**
   * Lines for the human, on stderr, each made safe (./format/terminal.ts): a control sequence
   * or a line break inside service text is shown escaped, a secret we hold as ***.
   */
  info(...lines: string[]): void {
    this.io.stderr.write(lines.map((line) => `${safeLine(line)}\n`).join(''));
  }

  debug = (line: string): void => {
    if (this.debugEnabled) this.io.stderr.write(`debug: ${safeLine(line)}\n`);
  };

  /** The environment's name, without checking that it exists (login may create it). */
  envName(data: { current_env?: string }): string {
    return selectEnv(this.flags.env, this.env, data).name;
  }

  /** The environment's name; exit 2 when it is neither built in nor in the config file. */
  async knownEnvName(): Promise<string> {
    return (await this.context()).envName;
  }

  async config(): Promise<ConfigStore> {
    if (!this.store) {
      const dir = variable(this.env, 'BILLING_CONFIG_DIR');
      const { ConfigStore } = await import('../../config/store.js');
      this.store = ConfigStore.open(dir);
      this.store.refuseFileAsDir();
    }
    return this.store;
  }

  async context(): Promise<Context> {
    if (!this.resolved) {
      const { resolveContext } = await import('../../config/resolve.js');
      const store = await this.config();
      this.resolved = resolveContext(
        {
          env: this.flags.env,
          profile: this.flags.profile,
          baseUrl: this.flags.baseUrl,
          baseUrlV1: this.flags.baseUrlV1,
          gatewayUrl: this.flags.gatewayUrl,
        },
        this.env,
        store.read(),
      );
      hideSecret(this.resolved.token);
      hideSecret(this.resolved.webhookSecret);
    }
    return this.resolved;
  }

  /** The API client of the resolved environment; fails before any request when there is no token. */
  async client(): Promise<ApiClient> {
    if (!this.apiClient) {
      const ctx = await this.context();
      const { requireBaseUrl } = await import('../../config/resolve.js');
      const { NotLoggedInError } = await import('../../errors.js');
      const baseUrl = await this.#baseUrlOrAdvice(ctx, requireBaseUrl);
      if (!ctx.token) throw new NotLoggedInError(ctx.envName);
      const { checkTokenTransport } = await import('../../config/transport.js');
      const warning = checkTokenTransport([baseUrl, ctx.baseUrlV1], ctx.allowHttp);
      if (warning) this.info(warning);
      const { ApiClient } = await import('../../api/client.js');
      this.apiClient = new ApiClient({
        baseUrl,
        baseUrlV1: ctx.baseUrlV1,
        envName: ctx.envName,
        profileId: ctx.profileId,
        token: ctx.token,
        timeoutMs: parseTimeout(variable(this.env, 'BILLING_TIMEOUT')),
        maxResponseBytes: parseMaxResponse(variable(this.env, 'BILLING_MAX_RESPONSE_MB')),
        settleMs: parseSettleWindow(this.flags.settleWindow),
        debug: this.debugEnabled ? this.debug : undefined,
        beforeWrite: (request) => this.beforeWrite(request),
      });
    }
    return this.apiClient;
  }

  /**
   * The v2 base, or the error of its absence with one more hint when an emulator of a
   * configured environment answers on this machine (after `npm run demo`, say).
   */
  async #baseUrlOrAdvice(ctx: Context, require: (ctx: Context) => string): Promise<string> {
    try {
      return require(ctx);
    } catch (error) {
      const { emulatorAdvice } = await import('./emulator-advice.js');
      const advice = await emulatorAdvice((await this.config()).read(), ctx.envName);
      if (advice && error instanceof BillingError)
        error.hint = `${error.hint ? `${error.hint}; or ` : ''}${advice}`;
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.apiClient?.close();
  }
}

function pickFormat(flags: GlobalOptions, stdoutIsTTY: boolean): OutputFormat {
  if (flags.json && flags.output !== undefined && flags.output !== 'json') {
    throw new UsageError(`--json and -o ${flags.output} ask for two different outputs`, {
      hint: `give one of them: --json is the same as -o json`,
    });
  }
  if (flags.json) return 'json';
  if (flags.output === undefined) return defaultFormat(stdoutIsTTY);
  if (isOutputFormat(flags.output)) return flags.output;
  throw new UsageError(`unknown output format "${flags.output}"`, {
    hint: `use one of: ${OUTPUT_FORMATS.join(', ')}`,
  });
}

/** BILLING_TIMEOUT is in seconds; the client's default applies when it is unset. */
function parseTimeout(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(`BILLING_TIMEOUT must be a number of seconds, got "${value}"`);
  }
  return Math.round(seconds * 1000);
}

/** --settle-window is in seconds (0 to 600); the client's default applies when it is not given. */
export function parseSettleWindow(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(seconds >= 0 && seconds <= 600)) {
    throw new UsageError(`--settle-window must be a number of seconds from 0 to 600, got "${value}"`, {
      hint: 'the default, 10, gives a service 10 s to show a move whose answer was lost',
    });
  }
  return Math.round(seconds * 1000);
}

/** --query-max-mb, in bytes; query.ts's default applies when it is not given. */
function parseQueryMax(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const mb = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(mb > 0))
    throw new UsageError(`--query-max-mb must be a number of megabytes, e.g. 256 (got "${value}")`);
  return Math.round(mb * 1024 * 1024);
}

/** BILLING_MAX_RESPONSE_MB, in bytes; the client's default (64 MB) applies when it is unset. */
export function parseMaxResponse(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const mb = Number(value);
  if (!Number.isFinite(mb) || mb <= 0) {
    throw new UsageError(`BILLING_MAX_RESPONSE_MB must be a number of megabytes, e.g. 128 (got "${value}")`);
  }
  return Math.round(mb * 1024 * 1024);
}
