// `webhooks listen` joins the emulator behind the environment by itself (issue 19 §1), the
// emulator's endpoints are managed while it runs, and `webhooks trigger` changes a real
// order there (§2). The built CLI as processes, the emulator over real HTTP.

import { describe, expect, it } from 'vitest';
import { adminFetch } from '../helpers/emulator.js';
import { useJoinedEmulator } from './helpers.js';

const { setup, events, got } = useJoinedEmulator();

describe('billing emulator webhooks add|list|remove', () => {
  it('manages endpoints while the emulator runs, each with all order events or a list', async () => {
    const { t, app, port, billing } = await setup();
    const add = await billing(
      'emulator',
      'webhooks',
      'add',
      app.url,
      '--events',
      'order.failed',
      '--port',
      port,
    );
    expect(add.code, add.stderr).toBe(0);
    const list = await billing('emulator', 'webhooks', 'list', '--port', port, '--json');
    expect(JSON.parse(list.stdout)).toEqual([
      { url: app.url, events: ['order.failed'], deliveries: 0, waiting: 0 },
    ]);

    expect((await billing('webhooks', 'trigger', 'order.active')).code).toBe(0);
    expect((await billing('webhooks', 'trigger', 'order.failed')).code).toBe(0);
    await got(app, 1);
    expect(events(app)).toEqual(['order.failed']);

    const all = await billing('emulator', 'webhooks', 'add', app.url, '--port', port, '--json');
    expect(JSON.parse(all.stdout).events).toBeNull();
    const bad = await billing(
      'emulator',
      'webhooks',
      'add',
      app.url,
      '--events',
      'order.nope',
      '--port',
      port,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"order\.nope" is not an order event/);

    const removed = await billing('emulator', 'webhooks', 'remove', app.url, '--port', port);
    expect(removed.code, removed.stderr).toBe(0);
    expect(t.emulator.webhooks.urls).toEqual([]);
    const again = await billing('emulator', 'webhooks', 'remove', app.url, '--port', port);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/no webhook endpoint/);
  });
});

describe('the endpoints admin API', () => {
  it('refuses a web page: no endpoint (where order events would go) is added cross-site or from a form', async () => {
    const { t } = await setup();
    const add = (headers: Record<string, string>) =>
      adminFetch(`${t.url}/__emulator/webhook-endpoints`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: 'http://attacker.example/steal' }),
      });
    expect((await add({ 'content-type': 'text/plain' })).status).toBe(403);
    expect(
      (await add({ 'content-type': 'application/json', origin: 'http://attacker.example' })).status,
    ).toBe(403);
    expect((await add({ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' })).status).toBe(
      403,
    );
    expect(t.emulator.webhooks.urls).toEqual([]);
    const bad = await add({ 'content-type': 'application/json' }).then(() =>
      adminFetch(`${t.url}/__emulator/webhook-endpoints`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'ftp://x' }),
      }),
    );
    expect(bad.status).toBe(400);
    // The same-origin JSON call above (what the CLI sends) did add it.
    expect(t.emulator.webhooks.urls).toEqual(['http://attacker.example/steal']);
  });
});
