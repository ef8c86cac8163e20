// A small shop on node:http, integrated with the Merchant Billing Service: it sells a mug
// (a single payment) and a monthly plan (a subscription), charges the customer's stored
// card, refunds, and keeps each order's status from the signed webhooks the service sends.
//
//   POST /buy        {customerId, productId}  a single-payment order, paid with the stored card
//   POST /subscribe  {customerId, productId, startDate}  a monthly subscription, first payment taken
//   POST /refund     {orderId}                refunds the order's payment
//   GET  /orders/ID                           what the shop knows of the order (from its webhooks)
//   POST /webhooks                            the service's order events, signature checked
//
// Configuration: createShop({baseUrl, baseUrlV1, profileId, token, webhookSecret}), which is
// what the service's dashboard gives (and what startEmulator() gives in the tests).

import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const TOLERANCE_S = 300;

export function createShop(config) {
  /** orderId → {status, events: [event names in the order received]} */
  const orders = new Map();
  /** X-Service-Delivery ids already handled: a retry or a redelivery is answered 200 and skipped. */
  const seen = new Set();
  const stats = { verified: 0, duplicates: 0, rejected: 0 };

  async function api(method, path, body, base = `${config.baseUrl}/profiles/${config.profileId}`) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${config.token}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  function remember(id, status) {
    const known = orders.get(id) ?? { status, events: [] };
    known.status = status;
    orders.set(id, known);
    return known;
  }

  /** Charges the stored card: the answer says whether the first payment was approved. */
  async function payFirst(orderId) {
    const paid = await api('POST', `/orders/${orderId}/pay_with_card`);
    if (paid.status === 201) return { orderId, paid: true, status: paid.body.order.status.value };
    const order = await api('GET', `/orders/${orderId}`);
    return { orderId, paid: false, status: order.body.order.status.value, reason: paid.body.error.message };
  }

  const routes = {
    'POST /buy': async ({ customerId, productId }) => {
      const created = await api('POST', '/orders', {
        order: {
          currency: 'EUR',
          customer_id: customerId,
          invoice_id: `SHOP-${randomUUID().slice(0, 8)}`,
          order_products: [{ product_id: productId }],
        },
      });
      if (created.status !== 201) return [422, { error: created.body.error.message }];
      return [200, await payFirst(created.body.order.id)];
    },
    'POST /subscribe': async ({ customerId, productId, startDate }) => {
      const created = await api(
        'POST',
        '/orders/create_subscription_order',
        {
          order: {
            currency: 'EUR',
            customer_id: customerId,
            recurring_collection_interval: 'MONTH',
            start_date: startDate,
            order_product: { product_id: productId },
          },
        },
        config.baseUrlV1,
      );
      if (created.status !== 201) return [422, { error: created.body.error.message }];
      return [200, await payFirst(created.body.payload.order.id)];
    },
    'POST /refund': async ({ orderId }) => {
      const payments = await api('GET', `/orders/${orderId}/payments`);
      const paid = payments.body.payments.filter((p) => p.kind === 'debit' && p.status === 'succeeded');
      const last = paid.at(-1);
      if (!last) return [409, { error: `order ${orderId} has no payment to refund` }];
      const refunded = await api('POST', `/payments/${last.id}/refund`);
      if (refunded.status !== 201) return [422, { error: refunded.body.error.message }];
      return [200, { orderId, refund: refunded.body.payment }];
    },
  };

  function verify(raw, header) {
    const parts = Object.fromEntries(
      String(header ?? '')
        .split(',')
        .map((p) => p.trim().split('=')),
    );
    const t = Number(parts.t);
    if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(parts.v1 ?? '')) return false;
    if (Math.abs(Date.now() / 1000 - t) > TOLERANCE_S) return false;
    const expected = createHmac('sha256', config.webhookSecret).update(`${t}.`).update(raw).digest();
    return timingSafeEqual(expected, Buffer.from(parts.v1, 'hex'));
  }

  function webhook(raw, headers) {
    if (!verify(raw, headers['x-service-signature'])) {
      stats.rejected += 1;
      return [400, { error: 'bad signature' }];
    }
    stats.verified += 1;
    const delivery = headers['x-service-delivery'];
    if (seen.has(delivery)) {
      stats.duplicates += 1;
      return [200, { duplicate: true }];
    }
    seen.add(delivery);
    const event = JSON.parse(raw.toString('utf8'));
    if (event.event !== 'order.test') {
      const known = remember(event.data.order.id, event.data.status);
      known.events.push(event.event);
    }
    return [200, { ok: true }];
  }

  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      let answer;
      try {
        const route = `${req.method} ${req.url}`;
        const orderView = /^GET \/orders\/(\d+)$/.exec(route);
        if (route === 'POST /webhooks') answer = webhook(raw, req.headers);
        else if (orderView) answer = [200, orders.get(Number(orderView[1])) ?? null];
        else if (routes[route]) answer = await routes[route](JSON.parse(raw.toString('utf8') || '{}'));
        else answer = [404, { error: `no route ${route}` }];
      } catch (error) {
        answer = [500, { error: error.message }];
      }
      res.writeHead(answer[0], { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer[1]));
    });
  });

  return {
    stats,
    /** Listens on a free port; resolves with the shop's origin. */
    listen: (port = 0) =>
      new Promise((resolve) =>
        server.listen(port, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)),
      ),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const env = process.env;
  const shop = createShop({
    baseUrl: env.BILLING_BASE_URL,
    baseUrlV1: env.BILLING_BASE_URL_V1,
    profileId: Number(env.BILLING_PROFILE_ID ?? 1),
    token: env.BILLING_API_TOKEN,
    webhookSecret: env.WEBHOOK_SECRET,
  });
  console.log(`shop listening at ${await shop.listen(Number(env.PORT ?? 3000))}`);
}
