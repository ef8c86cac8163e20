// Errors are values with a kind and an exit code. Everything below the CLI throws them (the
// config, the format layer, the API core); one place (src/cli/action.ts) turns them into a
// message on stderr and an exit code. The errors of talking to the service are in src/api/errors.ts.

export type ErrorKind =
  | 'usage'
  | 'config'
  | 'bad_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'invalid'
  | 'gateway'
  | 'server'
  | 'timeout'
  | 'network'
  | 'batch'
  | 'in_doubt'
  | 'unreported'
  | 'system'
  | 'in_use'
  | 'policy'
  | 'interrupted';

/** One problem listed by a 422 answer. */
export interface ErrorDetail {
  field?: string;
  message: string;
}

/** One exit code: its number, its words in `billing --help`, what it means (its row in the scripting guide, `billing help exit-codes`). */
export interface ExitCode {
  code: number;
  short: string;
  meaning: string;
}

/** The exit codes: the one table that `billing --help`, `billing help exit-codes` and the scripting guide's table read. */
export const EXIT_CODES = {
  ok: { code: 0, short: 'ok', meaning: 'success' },
  unexpected: { code: 1, short: 'bug', meaning: 'unexpected failure (a bug; `--debug` shows the stack)' },
  usage: {
    code: 2,
    short: 'usage/400',
    meaning: 'usage or invalid input (caught locally, or a 400), or a refused confirmation',
  },
  unauthenticated: { code: 3, short: 'auth/401', meaning: 'not authenticated: no token, or 401' },
  forbidden: { code: 4, short: 'forbidden/403', meaning: 'forbidden: 403' },
  notFound: { code: 5, short: 'not found/404', meaning: 'not found: 404' },
  conflict: { code: 6, short: 'conflict/409', meaning: 'conflict: 409' },
  invalid: { code: 7, short: 'rejected data/422', meaning: 'rejected data: 422 (each problem is listed)' },
  unavailable: {
    code: 8,
    short: 'service unavailable',
    meaning: 'the service or its gateway failed or could not be reached (also 429 and timeouts)',
  },
  batchFailed: { code: 9, short: 'batch with failures', meaning: 'a batch finished with some items failed' },
  inDoubt: {
    code: 10,
    short: 'money moves in doubt',
    meaning:
      "money moves in doubt: a run stopped because it could not record one, or an answer did not confirm a move (the summary names them); run it again: it checks them against the order's payments before sending anything",
  },
  unreported: {
    code: 11,
    short: 'moved but not reported',
    meaning:
      'the money moved, but its result could not be written (stdout full or closed); stderr names what was done: do not retry blindly',
  },
  system: {
    code: 12,
    short: 'this machine failed',
    meaning: 'this machine failed (a full disk, a closed output, a path that is a file); nothing moved',
  },
  inUse: {
    code: 13,
    short: 'journal in use',
    meaning: 'another run holds the journal (its lock); nothing was sent',
  },
  interrupted: {
    code: 130,
    short: 'interrupted',
    meaning: 'interrupted (Ctrl-C), at a prompt, a spinner, a list or a batch',
  },
} as const satisfies Record<string, ExitCode>;

/** The exit codes by name: `EXIT.usage` is 2. */
export const EXIT = Object.fromEntries(Object.entries(EXIT_CODES).map(([name, e]) => [name, e.code])) as {
  readonly [K in keyof typeof EXIT_CODES]: (typeof EXIT_CODES)[K]['code'];
};

export class BillingError extends Error {
  override name = 'BillingError';
  readonly kind: ErrorKind;
  readonly exitCode: number;
  /** A second line for the human: what to do next. */
  hint?: string;

  constructor(
    kind: ErrorKind,
    exitCode: number,
    message: string,
    options?: { hint?: string; cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.exitCode = exitCode;
    if (options?.hint) this.hint = options.hint;
  }
}

/** Bad flags, arguments or input files, caught before anything is sent. Exit 2. */
export class UsageError extends BillingError {
  override name = 'UsageError';
  constructor(message: string, options?: { hint?: string; cause?: unknown }) {
    super('usage', EXIT.usage, message, options);
  }
}

/** A config file that cannot be read or a setting that is missing. Exit 2. */
export class ConfigError extends BillingError {
  override name = 'ConfigError';
  constructor(message: string, options?: { hint?: string; cause?: unknown }) {
    super('config', EXIT.usage, message, options);
  }
}

/** No token at all (before any request). Exit 3, like a 401. */
export class NotLoggedInError extends BillingError {
  override name = 'NotLoggedInError';
  constructor(envName: string) {
    super('unauthenticated', EXIT.unauthenticated, `no API token for environment "${envName}"`, {
      hint: `run "billing login --env ${envName}" or set BILLING_API_TOKEN`,
    });
  }
}

/** A batch (bulk refunds) ended with some items failed. Exit 9. */
export class BatchFailedError extends BillingError {
  override name = 'BatchFailedError';
  constructor(message: string) {
    super('batch', EXIT.batchFailed, message);
  }
}

/** A run of money moves stopped because it could not record one; some rows are in doubt. Exit 10. */
export class InDoubtError extends BillingError {
  override name = 'InDoubtError';
  constructor(message: string, options?: { hint?: string; cause?: unknown }) {
    super('in_doubt', EXIT.inDoubt, message, options);
  }
}

/** Money moved, but writing its result failed. Exit 11, so a script never retries it blindly. */
export class UnreportedError extends BillingError {
  override name = 'UnreportedError';
  constructor(message: string, options?: { hint?: string; cause?: unknown }) {
    super('unreported', EXIT.unreported, message, options);
  }
}

/** A failure of this machine (disk full, output closed, a path that is a file). Exit 12. */
export class SystemError extends BillingError {
  override name = 'SystemError';
  constructor(message: string, options?: { hint?: string; cause?: unknown }) {
    super('system', EXIT.system, message, options);
  }
}

/** Another run holds the journal's lock. Exit 13. */
export class InUseError extends BillingError {
  override name = 'InUseError';
  constructor(message: string, options?: { hint?: string; cause?: unknown }) {
    super('in_use', EXIT.inUse, message, options);
  }
}

/** Ctrl-C. Exit 130. */
export class InterruptedError extends BillingError {
  override name = 'InterruptedError';
  constructor(message = 'interrupted') {
    super('interrupted', EXIT.interrupted, message);
  }
}
