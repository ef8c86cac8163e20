// Short forms of a local URL, expanded as `stripe listen --forward-to` does:
// 3000/hooks → http://localhost:3000/hooks, /hooks → http://localhost/hooks,
// :3000/hooks and localhost:3000/hooks → http://localhost:3000/hooks. A bare port or host:port
// (3000, localhost:3000) gets `defaultPath`: listen's own path (/webhooks), so that the app and
// listen agree unless told otherwise.

import { DEFAULT_WEBHOOK_PATH } from '../domain/local.js';

export function expandLocalUrl(value: string, defaultPath = DEFAULT_WEBHOOK_PATH): string | undefined {
  let text = value.trim();
  if (text === '') return undefined;
  const bare = /^(?:\d+|:\d+|[a-z0-9.-]+:\d+|\[[0-9a-f:.]+\]:\d+)$/i.test(text);
  if (bare) text = `${text}${defaultPath}`;
  if (/^\d+(\/.*)?$/.test(text)) text = `localhost:${text}`;
  else if (text.startsWith(':')) text = `localhost${text}`;
  else if (text.startsWith('/')) text = `localhost${text}`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) && !/^https?:\/\//i.test(text)) return undefined;
  if (!/^https?:\/\//i.test(text)) text = `http://${text}`;
  try {
    const url = new URL(text);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return undefined;
    return url.href;
  } catch {
    return undefined;
  }
}
