// One attempt of one delivery: a POST with a deadline over a keep-alive agent.

import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export type AttemptOutcome = { status: number; error: null } | { status: null; error: string };

export class Poster {
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 8 });
  private readonly https = new HttpsAgent({ keepAlive: true, maxSockets: 8 });
  private readonly live = new Set<() => void>();

  post(
    url: string,
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<AttemptOutcome> {
    return new Promise((resolve) => {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        resolve({ status: null, error: 'not a URL' });
        return;
      }
      const secure = target.protocol === 'https:';
      const send = secure ? httpsRequest : httpRequest;
      let settled = false;
      const finish = (outcome: AttemptOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.live.delete(cancel);
        resolve(outcome);
      };
      const req = send(target, {
        method: 'POST',
        agent: secure ? this.https : this.http,
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      });
      const timer = setTimeout(() => {
        req.destroy();
        finish({ status: null, error: `no answer within ${timeoutMs} ms` });
      }, timeoutMs);
      const cancel = () => {
        req.destroy();
        finish({ status: null, error: 'the emulator stopped' });
      };
      this.live.add(cancel);
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => finish({ status: res.statusCode ?? 0, error: null }));
        res.on('error', (err) => finish({ status: null, error: err.message }));
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        finish({ status: null, error: err.code === 'ECONNREFUSED' ? 'connection refused' : err.message });
      });
      req.end(body);
    });
  }

  close(): void {
    for (const cancel of [...this.live]) cancel();
    this.http.destroy();
    this.https.destroy();
  }
}
