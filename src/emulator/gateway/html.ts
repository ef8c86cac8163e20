// Small server-rendered pages for the browser side of the emulator (gateway and portal):
// every interpolated value goes through esc().

import type { ServerResponse } from 'node:http';

export function esc(value: unknown): string {
  return String(value ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem}table{border-collapse:collapse;width:100%;margin:1rem 0}
td,th{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left}
.note{color:#555;font-size:.9rem}.ok{color:#17692b}.bad{color:#a4161a}
.button,button{display:inline-block;padding:.5rem 1rem;border:1px solid #345;border-radius:4px;background:#2d5aa0;color:#fff;text-decoration:none;cursor:pointer}`;

/** A whole page; `body` is HTML that the caller has already escaped. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body>
<p class="note">billing emulator — test mode, no real money moves</p>
${body}
</body></html>
`;
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-store',
  });
  res.end(html);
}

export function sendText(
  res: ServerResponse,
  status: number,
  contentType: string,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'Content-Type': `${contentType}; charset=utf-8`,
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** 303: the browser follows with a GET, as after any form post. */
export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { Location: location, 'Content-Length': 0, 'Cache-Control': 'no-store' });
  res.end();
}

/** A page that refuses something, with a status code that says what kind of refusal. */
export class PageError extends Error {
  override name = 'PageError';
  constructor(
    readonly status: number,
    readonly title: string,
    readonly html: string,
  ) {
    super(title);
  }
}
