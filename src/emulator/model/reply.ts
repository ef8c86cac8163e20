// What every floor of the emulator answers with: the error a rule of the service throws
// (HttpError, turned into a JSON error by the http floor), the reply of a handler, and the
// JSON parsing that admin handlers of the subsystems share with the http floor.

export interface ErrorDetail {
  field: string;
  message: string;
}

export class HttpError extends Error {
  override name = 'HttpError';
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    status: number,
    message: string,
    options?: { details?: ErrorDetail[]; headers?: Record<string, string> },
  ) {
    super(message);
    this.status = status;
    this.details = options?.details;
    this.headers = options?.headers;
  }
}

export interface Reply {
  status: number;
  /** Absent for 204. */
  body?: unknown;
  /** A body that is not JSON (the OpenAPI document), sent as is. */
  text?: string;
  headers?: Record<string, string>;
}

/** The answer of the control API under /__emulator/ (http/admin.ts and the subsystems' admin handlers). */
export interface AdminReply extends Reply {
  /** Runs once the answer has been sent. */
  after?: () => void;
  /** True when the emulator's data changed. */
  changed?: boolean;
  /** Close the connection without answering (an injected fault). */
  drop?: boolean;
}

/** The parsed body, or undefined when there is none; 400 when it is not JSON. */
export function parseJson(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw new HttpError(400, 'malformed JSON in the request body');
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function errorBody(message: string, details?: ErrorDetail[]): unknown {
  return { error: details ? { message, details } : { message } };
}

export function errorReply(error: HttpError): Reply {
  return { status: error.status, body: errorBody(error.message, error.details), headers: error.headers };
}
