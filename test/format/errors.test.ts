import { describe, expect, it } from 'vitest';
import { ApiError, classifyStatus } from '../../src/api/errors.js';
import {
  BatchFailedError,
  ConfigError,
  EXIT,
  InterruptedError,
  NotLoggedInError,
  UsageError,
} from '../../src/errors.js';
import { formatError } from '../../src/format/index.js';
import { ANSI } from './fixtures.js';

const plain = { json: false, color: false, debug: false };

function apiError(
  status: number,
  message: string,
  extra: { details?: { field?: string; message: string }[]; hint?: string; cause?: unknown } = {},
) {
  const { kind, exitCode } = classifyStatus(status);
  return new ApiError(kind, exitCode, message, {
    status,
    method: 'POST',
    path: '/profiles/1/orders',
    ...extra,
  });
}

describe('formatError as text', () => {
  it('prints one error line for a service error', () => {
    expect(formatError(apiError(404, 'order 9 not found'), plain)).toBe('error: order 9 not found\n');
  });

  it('lists each problem of a 422, then the hint', () => {
    const err = apiError(422, 'invalid data', {
      details: [
        { field: 'invoice_id', message: 'has already been taken' },
        { message: 'customer is blocked' },
      ],
      hint: 'choose another --invoice-id',
    });
    expect(formatError(err, plain)).toBe(
      [
        'error: invalid data',
        '  - invoice_id: has already been taken',
        '  - customer is blocked',
        'hint: choose another --invoice-id',
        '',
      ].join('\n'),
    );
  });

  it('prints the hint of a local error and no --debug line for known kinds', () => {
    for (const err of [
      new NotLoggedInError('sandbox'),
      new UsageError('--items must be a number', { hint: 'try --items 50' }),
      new ConfigError('bad config'),
      new BatchFailedError('2 of 5 refunds failed'),
      new InterruptedError(),
    ]) {
      const text = formatError(err, plain);
      expect(text.startsWith(`error: ${err.message}\n`)).toBe(true);
      if (err.hint) expect(text).toContain(`\nhint: ${err.hint}\n`);
      expect(text).not.toContain('--debug');
      expect(text).not.toContain('    at ');
    }
  });

  it('a bug gets a short message and the --debug advice, the stack only with --debug', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    expect(formatError(bug, plain)).toBe(
      "error: Cannot read properties of undefined (reading 'id')\nrun again with --debug for details\n",
    );
    const debug = formatError(bug, { ...plain, debug: true });
    expect(debug).toContain('TypeError: Cannot read properties');
    expect(debug).toMatch(/\n {4}at /);
    expect(debug).not.toContain('run again with --debug');
  });

  it('with --debug shows the request and the cause chain', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4010'), { code: 'ECONNREFUSED' });
    const err = new ApiError('network', EXIT.unavailable, 'could not reach the service', {
      status: 0,
      method: 'GET',
      path: '/profiles/1/orders',
      cause,
    });
    const text = formatError(err, { ...plain, debug: true });
    expect(text.split('\n')[0]).toBe('error: could not reach the service');
    expect(text).toContain('request: GET /profiles/1/orders → no answer');
    expect(text).toContain('caused by: Error: connect ECONNREFUSED');
  });

  it('keeps the message on one line', () => {
    expect(formatError(new UsageError('first\nsecond\r\n third'), plain)).toBe('error: first second third\n');
  });

  it('handles thrown non-errors and empty messages', () => {
    expect(formatError('plain string', plain).split('\n')[0]).toBe('error: plain string');
    expect(formatError(undefined, plain).split('\n')[0]).toBe('error: unexpected error');
    expect(formatError({ weird: 1 }, plain).split('\n')[0]).toBe('error: {"weird":1}');
    const aggregate = new AggregateError([new Error('connect ECONNREFUSED ::1:4010')], '');
    expect(formatError(aggregate, plain).split('\n')[0]).toBe('error: connect ECONNREFUSED ::1:4010');
  });

  it('colours "error:" red only when colour is on', () => {
    const err = apiError(403, 'no access to profile 3', { hint: 'check --profile' });
    expect(formatError(err, { ...plain, color: true })).toMatch(/^\x1b\[31merror:\x1b\[39m no access/);
    expect(formatError(err, plain)).not.toMatch(ANSI);
  });
});

describe('formatError as json', () => {
  const json = { json: true, color: true, debug: true };

  it('is exactly one parseable line with status, kind, message and details', () => {
    const err = apiError(422, 'invalid data', {
      details: [{ field: 'currency', message: 'is not supported' }],
      hint: 'x',
    });
    const text = formatError(err, json);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.trimEnd().split('\n')).toHaveLength(1);
    expect(text).not.toMatch(ANSI);
    expect(JSON.parse(text)).toEqual({
      error: {
        status: 422,
        kind: 'invalid',
        message: 'invalid data',
        details: [{ field: 'currency', message: 'is not supported' }],
      },
    });
  });

  it('has status null without an HTTP answer, and kind unexpected for a bug', () => {
    expect(JSON.parse(formatError(new UsageError('bad flag'), json))).toEqual({
      error: { status: null, kind: 'usage', message: 'bad flag', details: [] },
    });
    const timeout = new ApiError('timeout', EXIT.unavailable, 'timed out', {
      status: 0,
      method: 'GET',
      path: '/x',
    });
    expect(JSON.parse(formatError(timeout, json)).error.status).toBeNull();
    const bug = formatError(new RangeError('boom'), json);
    expect(bug.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(bug)).toEqual({
      error: { status: null, kind: 'unexpected', message: 'boom', details: [] },
    });
  });

  for (const status of [400, 401, 403, 404, 409, 422, 502, 503]) {
    it(`carries the kind of a ${status}`, () => {
      const parsed = JSON.parse(formatError(apiError(status, `status ${status}`), json));
      expect(parsed.error.status).toBe(status);
      expect(parsed.error.kind).toBe(classifyStatus(status).kind);
    });
  }
});

describe('token redaction', () => {
  const leaky = apiError(401, 'token Bearer sk_live_abc123XYZ rejected; also sk_test_QQ_9', {
    details: [{ field: 'authorization', message: 'Bearer eyJhbGciOi.payload.sig is invalid' }],
    hint: 'your token sk_live_abc123XYZ expired',
    cause: new Error('header was Authorization: Bearer abc.def'),
  });

  it('hides bearer tokens and sk_ keys in every line, in text and with --debug', () => {
    for (const o of [plain, { ...plain, debug: true }, { ...plain, color: true, debug: true }]) {
      const text = formatError(leaky, o);
      expect(text).not.toMatch(/sk_live|sk_test|eyJhbGciOi|abc\.def/);
      expect(text).toContain('Bearer ***');
      expect(text).toContain('***');
    }
  });

  it('hides them in json mode and the line still parses', () => {
    const text = formatError(leaky, { json: true, color: false, debug: false });
    expect(text).not.toMatch(/sk_live|sk_test|eyJhbGciOi/);
    const parsed = JSON.parse(text);
    expect(parsed.error.message).toBe('token Bearer *** rejected; also ***');
    expect(parsed.error.details[0].message).toBe('Bearer *** is invalid');
  });

  it('hides them in the stack of a bug', () => {
    const bug = new Error('failed with sk_local_dev_emulator');
    expect(formatError(bug, { ...plain, debug: true })).not.toContain('sk_local_dev_emulator');
  });
});
