// Short forms of a local URL, expanded as `stripe listen --forward-to` does:
// 3000 → http://localhost:3000, 3000/hooks → http://localhost:3000/hooks, /hooks → http://localhost/hooks,
// :3000/hooks and localhost:3000/hooks → http://localhost:3000/hooks.

export function expandLocalUrl(value: string): string | undefined {
  let text = value.trim();
  if (text === '') return undefined;
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
