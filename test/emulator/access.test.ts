import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { call, createCustomer, createProduct, LIMITED_TOKEN, postOrder, v2 } from './helpers.js';

let emulator: RunningEmulator;
let profile2Order: number;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  const customer = await createCustomer(emulator, 2);
  const product = await createProduct(emulator, 2);
  const created = await postOrder(emulator, customer, product, 2);
  expect(created.status).toBe(201);
  profile2Order = created.body.order.id;
});
afterAll(() => emulator.close());

describe('tokens', () => {
  it('answers 401 without a token', async () => {
    const answer = await call(emulator, 'GET', v2(1, '/orders'), { token: null });
    expect(answer.status).toBe(401);
    expect(answer.body.error.message).toMatch(/token/);
    expect(answer.body.error.details).toBeUndefined();
  });

  it('answers 401 with an unknown token, and with a malformed Authorization header', async () => {
    expect((await call(emulator, 'GET', v2(1, '/orders'), { token: 'sk_nope' })).status).toBe(401);
    const res = await fetch(`${emulator.url}${v2(1, '/orders')}`, {
      headers: { Authorization: 'Basic abc' },
    });
    expect(res.status).toBe(401);
    await res.text();
  });

  it('answers 401 on the v1 interface too', async () => {
    const answer = await call(emulator, 'POST', '/api/v1/orders/create_single_order', {
      token: null,
      body: {},
    });
    expect(answer.status).toBe(401);
  });
});

describe('profiles', () => {
  it('answers 403 for a profile that exists but the token may not use', async () => {
    const answer = await call(emulator, 'GET', v2(3, '/orders'));
    expect(answer.status).toBe(403);
    expect(answer.body.error.message).toMatch(/profile 3/);
  });

  it('answers 403 to the limited token on profile 1, and lets it use profile 2', async () => {
    expect((await call(emulator, 'GET', v2(1, '/orders'), { token: LIMITED_TOKEN })).status).toBe(403);
    expect((await call(emulator, 'GET', v2(2, '/orders'), { token: LIMITED_TOKEN })).status).toBe(200);
  });

  it('answers 404 for a profile that does not exist or is not an integer', async () => {
    for (const profile of ['999', 'abc', '1.5', '0']) {
      const answer = await call(emulator, 'GET', `/api/v2/profiles/${profile}/orders`);
      expect(answer.status, profile).toBe(404);
      expect(answer.body.error.message).toMatch(/profile/);
    }
  });

  it('applies the same rules to the v1 profile_id query, defaulting to the token first profile', async () => {
    const body = { order: {} };
    expect(
      (await call(emulator, 'POST', '/api/v1/orders/create_single_order?profile_id=3', { body })).status,
    ).toBe(403);
    expect(
      (await call(emulator, 'POST', '/api/v1/orders/create_single_order?profile_id=999', { body })).status,
    ).toBe(404);
    // Reaching validation (422) means the profile was accepted.
    expect((await call(emulator, 'POST', '/api/v1/orders/create_single_order', { body })).status).toBe(422);
    const limited = await call(emulator, 'POST', '/api/v1/orders/create_single_order?profile_id=1', {
      body,
      token: LIMITED_TOKEN,
    });
    expect(limited.status).toBe(403);
  });
});

describe('records and paths', () => {
  it('answers 404 for an unknown or non-integer order id', async () => {
    for (const id of ['999999', 'abc', '-1', '1.0']) {
      const answer = await call(emulator, 'GET', v2(1, `/orders/${id}`));
      expect(answer.status, id).toBe(404);
      expect(answer.headers.get('content-type')).toMatch(/application\/json/);
    }
  });

  it('answers 404 for an order of another profile, even though the token may use both', async () => {
    expect((await call(emulator, 'GET', v2(2, `/orders/${profile2Order}`))).status).toBe(200);
    const answer = await call(emulator, 'GET', v2(1, `/orders/${profile2Order}`));
    expect(answer.status).toBe(404);
    expect(answer.body.error.message).toBe(`order ${profile2Order} not found`);
  });

  it('answers 404 JSON for an unknown API path and 405 for a known path with the wrong method', async () => {
    const unknown = await call(emulator, 'GET', v2(1, '/nothing-here'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toMatch(/no such API path/);
    expect((await call(emulator, 'GET', '/api/v3/whatever')).status).toBe(404);
    const wrongMethod = await call(emulator, 'DELETE', v2(1, '/orders'));
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, POST');
  });

  it('serves success answers as application/json', async () => {
    const answer = await call(emulator, 'GET', v2(1, '/orders'));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});
