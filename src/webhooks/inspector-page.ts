// The --inspect page. Everything a delivery carries came from outside: the script puts it on
// the page with textContent and attributes only (never innerHTML), and the page's CSP allows
// no script but this one.

export const INSPECTOR_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>billing webhooks listen: inspector</title>
<link rel="stylesheet" href="/app.css">
</head>
<body>
<header><h1>Deliveries</h1><span id="state" data-testid="state">connecting…</span></header>
<main>
<ol id="entries" data-testid="entries"></ol>
<section id="detail" data-testid="detail"><p class="hint">Select a delivery.</p></section>
</main>
<script src="/app.js"></script>
</body>
</html>
`;

export const INSPECTOR_CSS = `
body { font: 14px system-ui, sans-serif; margin: 0; color: #222; }
header { display: flex; gap: 1em; align-items: baseline; padding: .5em 1em; border-bottom: 1px solid #ddd; }
h1 { font-size: 1.1em; margin: 0; }
main { display: grid; grid-template-columns: minmax(18em, 1fr) 2fr; min-height: 90vh; }
ol { list-style: none; margin: 0; padding: 0; border-right: 1px solid #ddd; overflow: auto; }
li { padding: .4em 1em; border-bottom: 1px solid #eee; cursor: pointer; }
li.selected { background: #eef4ff; }
#detail { padding: .5em 1em; overflow: auto; }
.badge { display: inline-block; padding: 0 .4em; margin-left: .3em; border-radius: 3px; font-size: .85em; background: #eee; }
.bad { background: #fdd; } .good { background: #dfd; } .mark { background: #f3e0ff; }
pre, textarea { font: 12px ui-monospace, monospace; white-space: pre-wrap; word-break: break-all; background: #f7f7f7; padding: .5em; }
textarea { width: 100%; min-height: 12em; box-sizing: border-box; }
table { border-collapse: collapse; font: 12px ui-monospace, monospace; }
td { border-bottom: 1px solid #eee; padding: .1em .6em .1em 0; vertical-align: top; word-break: break-all; }
.hint { color: #777; }
`;

export const INSPECTOR_JS = `'use strict';
const token = new URLSearchParams(location.search).get('token') || '';
const list = document.getElementById('entries');
const detail = document.getElementById('detail');
const state = document.getElementById('state');
const entries = new Map();
let selected = null;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, String(value));
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

function badges(e) {
  const out = [];
  if (e.kind === 'rejected') out.push(el('span', { class: 'badge bad', 'data-testid': 'badge-rejected' }, 'rejected ' + e.answer));
  if (e.kind === 'skipped') out.push(el('span', { class: 'badge' }, 'skipped'));
  if (e.kind === 'delivery' && !e.signature.checked) out.push(el('span', { class: 'badge bad' }, 'UNVERIFIED'));
  if (e.synthetic) out.push(el('span', { class: 'badge mark', 'data-testid': 'badge-synthetic' }, 'synthetic'));
  if (e.duplicate) out.push(el('span', { class: 'badge' }, 'duplicate'));
  if (e.replay) out.push(el('span', { class: 'badge mark', 'data-testid': 'badge-replay' }, 'replay of #' + e.replay.of));
  if (e.replay && e.replay.edited) out.push(el('span', { class: 'badge mark', 'data-testid': 'badge-edited' }, 'edited'));
  if (e.app) out.push(el('span', { class: 'badge ' + (e.app.status !== null && e.app.status < 300 ? 'good' : 'bad') }, appText(e.app)));
  return out;
}

function appText(app) {
  return 'app ' + (app.status === null ? (app.error || 'no answer') : app.status) + ' in ' + app.latency_ms + ' ms';
}

function row(e) {
  const time = e.received_at.slice(11, 19);
  const li = el('li', { 'data-testid': 'entry', 'data-id': e.id, 'data-kind': e.kind, 'data-event': e.event || '' },
    el('span', { class: 'hint' }, '#' + e.id + ' ' + time + ' '),
    el('strong', {}, e.event || '(not an event)'),
    ...badges(e));
  li.addEventListener('click', () => show(e.id));
  return li;
}

function show(id) {
  selected = id;
  for (const li of list.children) li.classList.toggle('selected', li.getAttribute('data-id') === String(id));
  const e = entries.get(id);
  const headers = el('table', { 'data-testid': 'headers' });
  for (const [name, value] of Object.entries(e.headers)) headers.append(el('tr', {}, el('td', {}, name), el('td', {}, value)));
  const status = el('p', { 'data-testid': 'replay-status', class: 'hint' });
  const parts = [
    el('h2', {}, (e.event || '(not an event)') + ' ', ...badges(e)),
    el('p', {}, 'Delivery ', el('code', { 'data-testid': 'delivery-id' }, e.delivery_id || '(none)'), ' received ' + e.received_at),
    el('p', { 'data-testid': 'signature', class: e.signature.ok ? 'good' : 'bad' }, 'Signature: ' + e.signature.message),
    el('p', { 'data-testid': 'app-answer' }, e.app ? appText(e.app) : (e.answer === null ? 'not forwarded' : 'answered ' + e.answer + ' (not forwarded)')),
    el('h3', {}, 'Headers'), headers,
    el('h3', {}, 'Body'), el('pre', { 'data-testid': 'body' }, e.body),
  ];
  if (e.replayable) {
    const replay = el('button', { 'data-testid': 'replay' }, 'Replay to the app');
    replay.addEventListener('click', () => send(e.id, undefined, status));
    const edit = el('button', { 'data-testid': 'edit' }, 'Edit and replay');
    edit.addEventListener('click', () => {
      const area = el('textarea', { 'data-testid': 'edit-body', spellcheck: 'false' });
      area.value = e.body;
      const go = el('button', { 'data-testid': 'send-edited' }, 'Send edited');
      go.addEventListener('click', () => send(e.id, area.value, status));
      edit.replaceWith(el('div', {}, area, go));
    });
    parts.push(el('p', {}, replay, ' ', edit), status);
  }
  detail.replaceChildren(...parts);
}

async function send(id, body, status) {
  status.textContent = 'sending…';
  try {
    const res = await fetch('/api/entries/' + id + '/replay', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-inspector-token': token },
      body: JSON.stringify(body === undefined ? {} : { body }),
    });
    const answer = await res.json();
    status.textContent = res.ok ? 'replayed: see #' + (answer.latest ? answer.latest.id : '?') : 'refused: ' + answer.error.message;
  } catch (err) {
    status.textContent = 'failed: ' + err.message;
  }
}

const stream = new EventSource('/api/stream?token=' + encodeURIComponent(token));
stream.onopen = () => { state.textContent = 'live'; };
stream.onerror = () => { state.textContent = 'disconnected (listen stopped?)'; };
stream.onmessage = (message) => {
  const e = JSON.parse(message.data);
  entries.set(e.id, e);
  list.prepend(row(e));
  if (selected === null) show(e.id);
};
`;
