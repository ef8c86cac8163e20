// The shop's integration tests: billing's emulator in the test process (npm install --save-dev
// billing), started from test/shop.yaml; the shop is pointed at it and registered as its
// webhook endpoint. Only the documented test API of `billing/emulator` is used.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startEmulator } from 'billing/emulator';
import { createShop } from '../shop.mjs';

let emulator;
let shop;
let shopUrl;

before(async () => {
  emulator = await startEmulator({ fixture: new URL('./shop.yaml', import.meta.url).pathname });
  shop = createShop({
    baseUrl: emulator.baseUrl,
    baseUrlV1: emulator.baseUrlV1,
    profileId: emulator.profileId,
    token: emulator.token,
    webhookSecret: emulator.webhookSecret,
  });
  shopUrl = await shop.listen();
  await emulator.webhooks.add(`${shopUrl}/webhooks`);
});

after(async () => {
  await shop?.close();
  await emulator?.stop();
});

const post = async (path, body) => {
  const res = await fetch(`${shopUrl}${path}`, { method: 'POST', body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
};
const known = async (orderId) => (await fetch(`${shopUrl}/orders/${orderId}`)).json();

/** The shop has handled the order's `event` once the emulator says it was delivered. */
const delivered = (orderId, event) =>
  emulator.deliveries.waitFor((d) => d.order_id === orderId && d.event === event && d.state === 'delivered');

test('a first payment declined by the card: the shop says so and learns order.failed', async () => {
  const { ids } = emulator;
  const bought = await post('/buy', { customerId: ids.customers.bob, productId: ids.products.mug });
  assert.equal(bought.status, 200);
  assert.equal(bought.body.paid, false);
  assert.equal(bought.body.status, 'failed');
  assert.match(bought.body.reason, /insufficient funds/);
  await delivered(bought.body.orderId, 'order.failed');
  assert.deepEqual(await known(bought.body.orderId), {
    status: 'failed',
    events: ['order.pending', 'order.failed'],
  });
});

test('a subscription renews a month later: charged on the clock, announced in the outbox, no webhook', async () => {
  const { ids } = emulator;
  const sub = await post('/subscribe', {
    customerId: ids.customers.ada,
    productId: ids.products.plan,
    startDate: '15/02/2031 09:00',
  });
  assert.equal(sub.body.paid, true);
  await delivered(sub.body.orderId, 'order.active');
  await emulator.clock.set('2031-02-15T10:00:00Z');
  const month = await emulator.clock.advance('1mo');
  const charged = month.ran.filter((r) => r.order_id === sub.body.orderId && r.action === 'charged');
  assert.equal(charged.length, 1);
  const notice = await emulator.outbox.waitFor(
    (m) => m.order_id === sub.body.orderId && m.kind === 'renewal_notice',
  );
  assert.equal(notice.to, 'ada@example.com');
  // A renewal that succeeds changes no status, so it sends no webhook: the shop still knows it active.
  const events = (await emulator.deliveries.list({ orderId: sub.body.orderId })).map((d) => d.event);
  assert.deepEqual(events, ['order.active']);
  assert.equal((await known(sub.body.orderId)).status, 'active');
});

test('a refund of a paid order', async () => {
  const { ids } = emulator;
  const bought = await post('/buy', { customerId: ids.customers.ada, productId: ids.products.mug });
  assert.equal(bought.body.paid, true);
  const refunded = await post('/refund', { orderId: bought.body.orderId });
  assert.equal(refunded.status, 200);
  assert.equal(refunded.body.refund.kind, 'refund');
  assert.equal(refunded.body.refund.amount, '12.00');
  const again = await post('/refund', { orderId: bought.body.orderId });
  assert.equal(again.status, 422);
});

test('the deliveries: every one signed, verified and handled once; a redelivery is a duplicate', async () => {
  const all = await emulator.deliveries.list();
  assert.ok(all.length >= 4);
  for (const d of all) await delivered(d.order_id, d.event);
  const before = shop.stats.duplicates;
  const [latest] = await emulator.deliveries.list();
  await emulator.deliveries.redeliver(latest.id);
  await emulator.deliveries.waitFor(
    (d) => d.id === latest.id && d.attempts.length === latest.attempts.length + 1,
  );
  assert.equal(shop.stats.duplicates, before + 1);
  assert.equal(shop.stats.rejected, 0);
  assert.equal(shop.stats.verified, all.length + 1);
});

test('trigger: the emulator moves an order by its rules, and the shop follows', async () => {
  const { ids } = emulator;
  const bought = await post('/buy', { customerId: ids.customers.ada, productId: ids.products.mug });
  await emulator.trigger(bought.body.orderId, 'cancelled');
  await delivered(bought.body.orderId, 'order.cancelled');
  assert.equal((await known(bought.body.orderId)).status, 'cancelled');
});
