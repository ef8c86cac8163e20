// The emulator's pages for a browser (the gateway's widget and forms, the order portal):
// outside /api, so no token; answered with HTML, and errors as pages too.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { PageError, sendHtml } from '../gateway/html.js';
import { refusedPage } from '../gateway/pages.js';
import { handleGateway } from '../gateway/routes.js';
import { HttpError } from '../model/reply.js';
import type { Runtime } from '../model/runtime.js';
import { handlePortal } from '../portal/routes.js';
import { readBody } from './body.js';

export function isBrowserPath(rawUrl: string | undefined): boolean {
  const path = (rawUrl ?? '/').split('?')[0] ?? '/';
  return path === '/gateway' || path.startsWith('/gateway/') || path.startsWith('/portal/');
}

export async function handleBrowser(
  runtime: Runtime,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://emulator.invalid');
  const method = req.method ?? 'GET';
  try {
    const raw = await readBody(req);
    const request = {
      runtime,
      method,
      path: url.pathname,
      query: url.searchParams,
      form: new URLSearchParams(method === 'POST' ? raw : ''),
      res,
    };
    if (handleGateway(request) || handlePortal(request)) {
      if (method === 'POST') runtime.state.markChanged();
      return;
    }
    throw new PageError(404, 'Not found', refusedPage('Not found', `There is no page at ${url.pathname}.`));
  } catch (error) {
    if (error instanceof PageError) sendHtml(res, error.status, error.html);
    else if (error instanceof HttpError) sendHtml(res, error.status, refusedPage('Refused', error.message));
    else throw error;
  }
}
