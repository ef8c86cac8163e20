// A small fake service over real HTTP (node:http on port 0) for the API-core tests:
// it records what arrives and answers what each test says.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: Received, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

export interface FakeService {
  origin: string;
  baseUrl: string;
  baseUrlV1: string;
  received: Received[];
  /** TCP connections accepted so far. */
  connections: number;
  /** Requests whose client went away before the answer was complete. */
  aborted: number;
  close(): Promise<void>;
}

export async function startService(handler: Handler): Promise<FakeService> {
  const received: Received[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://x');
    const entry: Received = {
      method: req.method ?? '',
      url: req.url ?? '',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    received.push(entry);
    res.on('close', () => {
      if (!res.writableFinished) service.aborted += 1;
    });
    try {
      await handler(entry, res, req);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    }
  });
  server.on('connection', () => {
    service.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const service: FakeService = {
    origin,
    baseUrl: `${origin}/api/v2`,
    baseUrlV1: `${origin}/api/v1`,
    received,
    connections: 0,
    aborted: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return service;
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A port with nothing listening on it. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
