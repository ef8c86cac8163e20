// Errors are values with a kind and an exit code. Everything below the CLI throws them (the
// config, the format layer, the API core); one place (src/commands/run.ts) turns them into a
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

export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  unauthenticated: 3,
  forbidden: 4,
  notFound: 5,
  conflict: 6,
  invalid: 7,
  unavailable: 8,
  batchFailed: 9,
  /** A run of money moves stopped because it could not record one: some rows are in doubt. */
  inDoubt: 10,
  /** Money moved, but its result could not be written (stdout full or closed). */
  unreported: 11,
  /** This machine failed: a full disk, a closed output, a path that is a file. Nothing moved. */
  system: 12,
  /** Another run holds the journal (its lock); nothing was sent. */
  inUse: 13,
  interrupted: 130,
} as const;

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
