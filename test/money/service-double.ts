// A service double in front of the emulator (real HTTP both ways): every request is passed on
// as it came, and its answer back, but for what the test switches on — answers without a
// `Date` header (`withoutDate`), or a refund refused with a 422 that never reaches the
// emulator (`refuseRefunds`: the service refused it, nothing moved).

import { createServer, request as httpRequest, type Server } from 'node:http';

export interface ServiceDouble {
  /** The double's address: point BILLING_BASE_URL at `${url}/api/v2`. */
  url: string;
  withoutDate: boolean;
  refuseRefunds: boolean;
  /** The refunds the double refused. */
  refused: number;
  close(): Promise<void>;
}

export async function serviceDouble(
  emulatorUrl: string,
  o: { withoutDate?: boolean; refuseRefunds?: boolean } = {},
): Promise<ServiceDouble> {
  const target = new URL(emulatorUrl);
  const double = {
    withoutDate: o.withoutDate ?? false,
    refuseRefunds: o.refuseRefunds ?? false,
    refused: 0,
  };
  const server: Server = createServer((req, res) => {
    // Node adds a Date header to every answer unless told not to.
    res.sendDate = !double.withoutDate;
    if (double.refuseRefunds && req.method === 'POST' && /\/refund$/.test(req.url ?? '')) {
      double.refused += 1;
      req.resume();
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            message: 'refund is invalid (1 problem)',
            details: [{ field: 'amount', message: 'refused by the double' }],
          },
        }),
      );
      return;
    }
    const out = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        const headers = { ...answer.headers };
        if (double.withoutDate) delete headers.date;
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return Object.assign(double, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  });
}
