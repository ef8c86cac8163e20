// The emulator's answers as bytes on one keep-alive connection: what a request without a
// body, one with a body it does not need, and one whose body is missing get. (A request
// without Content-Length or Transfer-Encoding has no body, so the emulator does not wait
// for one; one that has a body is still read to its end before the next request.)

import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { createCustomer, createProduct, v2 } from './helpers.js';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  await createCustomer(emulator, 1);
  await createProduct(emulator, 1);
});
afterAll(() => emulator.close());

/** Writes the requests on one connection and reads until `answers` responses have come. */
async function exchange(raw: string, answers: number): Promise<{ status: number; body: string }[]> {
  const socket = connect(emulator.port, '127.0.0.1');
  socket.write(raw);
  let text = '';
  const parsed: { status: number; body: string }[] = [];
  for await (const chunk of socket) {
    text += (chunk as Buffer).toString('latin1');
    for (;;) {
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) break;
      const head = text.slice(0, end);
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (text.length < end + 4 + length) break;
      const body = Buffer.from(text.slice(end + 4, end + 4 + length), 'latin1').toString('utf8');
      parsed.push({ status: Number(head.split(' ')[1]), body });
      text = text.slice(end + 4 + length);
    }
    if (parsed.length >= answers) break;
  }
  socket.destroy();
  return parsed;
}

const request = (method: string, path: string, extra = '', body = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer sk_local_dev_emulator\r\n${extra}\r\n${body}`;

describe('request bodies on the wire', () => {
  it('answers a GET without a body, and one with a body it reads past, alike on one connection', async () => {
    const path = v2(1, '/customers');
    const answers = await exchange(
      request('GET', path) +
        request('GET', path, 'Content-Length: 11\r\n', '{"x":"yz"}\n') +
        request('GET', path, 'Transfer-Encoding: chunked\r\n', '3\r\nabc\r\n0\r\n\r\n') +
        request('GET', path),
      4,
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(JSON.parse(answers[0]?.body ?? '').customers.length).toBeGreaterThan(0);
  });

  it('takes a POST without Content-Length or Transfer-Encoding as having no body: 400 naming the root key', async () => {
    const [answer, next] = await exchange(
      request('POST', v2(1, '/orders')) + request('GET', v2(1, '/products')),
      2,
    );
    expect(answer?.status).toBe(400);
    expect(JSON.parse(answer?.body ?? '').error.message).toMatch(/root key "order"/);
    expect(next?.status).toBe(200);
  });
});

describe('request targets', () => {
  it('reads a query as new URL does, on a plain path and on one it normalizes', async () => {
    await createCustomer(emulator, 1);
    const plain = v2(1, '/customers?items=%31&page=1');
    const dotted = `${v2(1, '/x/../customers')}?items=%31&page=1`;
    const [a, b] = await exchange(request('GET', plain) + request('GET', dotted), 2);
    expect(a?.status).toBe(200);
    expect(JSON.parse(a?.body ?? '').customers).toHaveLength(1);
    expect(b).toEqual(a);
  });
});
