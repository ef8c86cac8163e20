import { describe, expect, it } from 'vitest';
import {
  AbortError,
  ApiError,
  classifyStatus,
  errorFromNoAnswer,
  errorFromResponse,
  isAbortError,
  networkErrorCode,
} from '../../src/api/errors.js';
import { BillingError, EXIT } from '../../src/errors.js';

const req = { method: 'GET', path: '/api/v2/profiles/1/orders/5' };

function fromBody(body: unknown, status = 422) {
  return errorFromResponse({ status, body, ...req });
}

describe('errorFromResponse: the message', () => {
  it.each([
    ['error.message', { error: { message: 'order not found' } }],
    ['message', { message: 'order not found' }],
    ['error as a string', { error: 'order not found' }],
    ['a JSON string body', '{"error":{"message":"order not found"}}'],
    ['error.message over message', { error: { message: 'order not found' }, message: 'other' }],
  ])('reads %s', (_name, body) => {
    expect(fromBody(body, 404).message).toBe('order not found');
  });

  it('joins a list of strings in errors', () => {
    const e = fromBody({ errors: ['currency is invalid', 'customer_id is missing'] });
    expect(e.message).toBe('currency is invalid; customer_id is missing');
    expect(e.details).toEqual([{ message: 'currency is invalid' }, { message: 'customer_id is missing' }]);
  });

  it('reads a list of objects in errors', () => {
    const e = fromBody({ errors: [{ field: 'currency', message: 'is invalid' }, { msg: 'bad' }] });
    expect(e.message).toBe('currency: is invalid; bad');
    expect(e.details).toEqual([{ field: 'currency', message: 'is invalid' }, { message: 'bad' }]);
  });

  it('reads a map of field to messages in errors', () => {
    const e = fromBody({ errors: { currency: ['is invalid', 'is too long'], invoice_id: 'is taken' } });
    expect(e.message).toBe('currency: is invalid; currency: is too long; invoice_id: is taken');
    expect(e.details).toEqual([
      { field: 'currency', message: 'is invalid' },
      { field: 'currency', message: 'is too long' },
      { field: 'invoice_id', message: 'is taken' },
    ]);
  });

  it('takes the 422 details from error.details, with the message from error.message', () => {
    const e = fromBody({
      error: {
        message: 'the order is invalid',
        details: [
          { field: 'currency', message: 'is not a currency code' },
          { field: 'order_products', message: 'must not be empty' },
        ],
      },
    });
    expect(e.message).toBe('the order is invalid');
    expect(e.details).toEqual([
      { field: 'currency', message: 'is not a currency code' },
      { field: 'order_products', message: 'must not be empty' },
    ]);
    expect(e.kind).toBe('invalid');
    expect(e.exitCode).toBe(EXIT.invalid);
  });

  it.each([
    ['HTML', '<html><body>Bad Gateway</body></html>', 502, 'HTTP 502 Bad Gateway'],
    ['empty', '', 503, 'HTTP 503 Service Unavailable'],
    ['broken JSON', '{"error":', 500, 'HTTP 500 Internal Server Error'],
    ['JSON without a message', { foo: 1 }, 404, 'HTTP 404 Not Found'],
    ['an unusual status', undefined, 418, 'HTTP 418 Error'],
  ])('a body that is %s gives "HTTP <status> <reason>"', (_name, body, status, message) => {
    expect(fromBody(body, status).message).toBe(message);
  });

  it('uses the reason phrase the server sent when there is no message', () => {
    const e = errorFromResponse({ status: 599, body: '', statusText: 'Odd', ...req });
    expect(e.message).toBe('HTTP 599 Odd');
  });

  it('keeps status, method and path', () => {
    const e = fromBody({ message: 'x' }, 409);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toBeInstanceOf(BillingError);
    expect(e.status).toBe(409);
    expect(e.method).toBe('GET');
    expect(e.path).toBe('/api/v2/profiles/1/orders/5');
  });
});

describe('errorFromResponse: kind, exit code and hint', () => {
  it.each([
    [400, 'bad_request', EXIT.usage],
    [401, 'unauthenticated', EXIT.unauthenticated],
    [403, 'forbidden', EXIT.forbidden],
    [404, 'not_found', EXIT.notFound],
    [409, 'conflict', EXIT.conflict],
    [422, 'invalid', EXIT.invalid],
    [502, 'gateway', EXIT.unavailable],
    [500, 'server', EXIT.unavailable],
    [503, 'server', EXIT.unavailable],
    [429, 'server', EXIT.unavailable],
  ])('%i → %s, exit %i (as classifyStatus)', (status, kind, exitCode) => {
    const e = fromBody({ message: 'x' }, status);
    expect(e.kind).toBe(kind);
    expect(e.exitCode).toBe(exitCode);
    expect(classifyStatus(status)).toEqual({ kind, exitCode });
  });

  it('401 hints at logging in again or BILLING_API_TOKEN', () => {
    expect(fromBody({}, 401).hint).toMatch(/billing login.*BILLING_API_TOKEN/);
  });

  it('403 says the token may not use the profile', () => {
    const e = errorFromResponse({ status: 403, body: {}, profileId: 3, ...req });
    expect(e.hint).toMatch(/the token may not use profile 3/);
    expect(fromBody({}, 403).hint).toMatch(/may not use this profile/);
  });

  it('502 says to check the record before retrying', () => {
    expect(fromBody({}, 502).hint).toMatch(/check the record before retrying/);
  });
});

describe('errorFromNoAnswer', () => {
  const init = { method: 'GET', path: '/api/v2/x', origin: 'http://127.0.0.1:4010' };
  const coded = (code: string) => Object.assign(new Error(code), { code });

  it('connection refused names the host, kind network, status 0, exit 8', () => {
    const e = errorFromNoAnswer(coded('ECONNREFUSED'), init);
    expect(e.message).toBe('could not reach http://127.0.0.1:4010: connection refused');
    expect(e.kind).toBe('network');
    expect(e.status).toBe(0);
    expect(e.exitCode).toBe(EXIT.unavailable);
    expect(e.hint).toMatch(/billing emulator start/);
  });

  it('finds the code inside an AggregateError or a cause', () => {
    const aggregate = Object.assign(new AggregateError([coded('ECONNREFUSED')], 'x'), {});
    expect(networkErrorCode(aggregate)).toBe('ECONNREFUSED');
    expect(networkErrorCode(new Error('x', { cause: coded('ENOTFOUND') }))).toBe('ENOTFOUND');
    expect(networkErrorCode(new Error('plain'))).toBeUndefined();
  });

  it.each([
    ['ECONNRESET', 'connection reset'],
    ['ENOTFOUND', 'host not found (DNS)'],
    ['UND_ERR_SOCKET', 'connection closed by the server'],
  ])('%s → %s', (code, reason) => {
    const e = errorFromNoAnswer(coded(code), { ...init, origin: 'https://api.example.com' });
    expect(e.message).toBe(`could not reach https://api.example.com: ${reason}`);
    expect(e.hint).not.toMatch(/emulator/);
  });

  it('our deadline, or a timeout code, is kind timeout with exit 8', () => {
    const e = errorFromNoAnswer(new Error('aborted'), { ...init, timeoutMs: 30_000 });
    expect(e.kind).toBe('timeout');
    expect(e.exitCode).toBe(EXIT.unavailable);
    expect(e.message).toBe('no answer from http://127.0.0.1:4010 within 30s');
    expect(errorFromNoAnswer(coded('UND_ERR_CONNECT_TIMEOUT'), init).kind).toBe('timeout');
  });
});

describe('AbortError', () => {
  it('is named AbortError and exits 130', () => {
    const e = new AbortError();
    expect(e.name).toBe('AbortError');
    expect(e.exitCode).toBe(EXIT.interrupted);
    expect(isAbortError(e)).toBe(true);
    expect(isAbortError(new DOMException('x', 'AbortError'))).toBe(true);
    expect(isAbortError(new Error('x'))).toBe(false);
  });
});
