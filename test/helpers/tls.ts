// An https double with a CA of its own: a TLS front on `host` that passes every request to an
// emulator on this machine. The CLI trusts the CA through NODE_EXTRA_CA_CERTS (give it
// `env`), so it talks https to an address that is not loopback, as to a service elsewhere.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './cli.js';

export interface HttpsDouble {
  /** https://<host>:<port> */
  url: string;
  /** For runCli: trust the double's CA. */
  env: { NODE_EXTRA_CA_CERTS: string };
  close(): Promise<void>;
}

function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], timeout: 20_000 });
}

/** A CA, and a certificate it signs for the IP address `host`. */
function certificates(host: string): { ca: string; key: Buffer; cert: Buffer } {
  const dir = tempDir('billing-tls-');
  openssl(
    dir,
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=billing test CA',
  );
  openssl(
    dir,
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'host.key',
    '-out',
    'host.csr',
    '-subj',
    `/CN=${host}`,
  );
  const ext = join(dir, 'san.ext');
  execFileSync('sh', ['-c', `printf 'subjectAltName=IP:${host}\\n' > '${ext}'`], { timeout: 10_000 });
  openssl(
    dir,
    'x509',
    '-req',
    '-in',
    'host.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'host.pem',
    '-days',
    '2',
    '-extfile',
    ext,
  );
  return {
    ca: join(dir, 'ca.pem'),
    key: readFileSync(join(dir, 'host.key')),
    cert: readFileSync(join(dir, 'host.pem')),
  };
}

export async function startHttpsDouble(host: string, target: string): Promise<HttpsDouble> {
  const { ca, key, cert } = certificates(host);
  const to = new URL(target);
  const server = createServer({ key, cert }, (req, res) => {
    const upstream = request(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: to.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://${host}:${port}`,
    env: { NODE_EXTRA_CA_CERTS: ca },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
