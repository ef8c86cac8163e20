// A stand-in for the service's list routes whose own cost is near nothing: every page of orders
// and customers is made once, as bytes, before it listens, and each request is answered with
// those bytes LATENCY ms after it arrived. bench/lists.mjs times `orders list --all` against it,
// so the figure is billing's and the latency's, not the emulator's.
//
//   node bench/page-server.mjs PORT ORDERS LATENCY_MS
//
// Orders have the emulator's shape (one line of one product, the customer embedded), newest
// first: ids ORDERS..1, invoice ids BULK-<id> but the oldest, INV-000001, on the last page.
// One order in 250 belongs to James O'Brien (james.obrien@example.com), one of 8 customers.
// GET /api/v2/profiles/1/orders/{id} answers any id in range; /__emulator/status answers 200.

import http from 'node:http';

const [port, ordersArg, latencyArg] = process.argv.slice(2);
const ORDERS = Number(ordersArg);
const LATENCY = Number(latencyArg ?? 0);
const PER_PAGE_MAX = 100;

const PEOPLE = [
  ['Anna', 'Schmidt', 'anna.schmidt@example.com', 'DE', 'Germany', 'Berlin'],
  ['James', "O'Brien", 'james.obrien@example.com', 'IE', 'Ireland', 'Dublin'],
  ['Marie', 'Dubois', 'marie.dubois@example.com', 'FR', 'France', 'Paris'],
  ['Luca', 'Rossi', 'luca.rossi@example.com', 'IT', 'Italy', 'Rome'],
  ['Sofia', 'García', 'sofia.garcia@example.com', 'ES', 'Spain', 'Madrid'],
  ['Jan', 'de Vries', 'jan.devries@example.com', 'NL', 'Netherlands', 'Amsterdam'],
  ['Emma', 'Johansson', 'emma.johansson@example.com', 'SE', 'Sweden', 'Stockholm'],
  ['Noah', 'Wilson', 'noah.wilson@example.com', 'GB', 'United Kingdom', 'London'],
];
const created = '2026-11-28T12:00:00.000Z';

function customer(i) {
  const [first, last, email, country, countryName, city] = PEOPLE[i];
  const n = String(i + 1).padStart(6, '0');
  return {
    display_customer_id: `CUS-${n}`,
    merchant_customer_id: `CRM-${1001 + i}`,
    first_name: first,
    last_name: last,
    full_name: `${first} ${last}`,
    email,
    phone: `+00 1 555 ${String(100 + i).padStart(4, '0')}`,
    date_of_birth: '1985-04-12',
    street: 'Hauptstraße 5',
    city,
    state: null,
    postal_code: '10115',
    country,
    country_name: countryName,
  };
}

const customerOf = (id) => (id % 250 === 0 ? 1 : id % 8);

function order(id) {
  const c = customerOf(id);
  const amount = `${(10 + (id % 90)).toFixed(0)}.50`;
  return {
    id,
    merchant_invoice_id: id === 1 ? 'INV-000001' : `BULK-${id}`,
    order_type: { value: 'single_payment', label: 'Single Payment' },
    status: { value: 'draft', label: 'Draft' },
    currency: 'EUR',
    channel: 'ECOM',
    description: null,
    collect_initial_payment: true,
    card_details_saved: 'No',
    initial_amount: amount,
    customer_id: c + 1,
    customer: customer(c),
    order_products: [
      {
        id: id + 1_000_000,
        product_id: 1,
        name: 'Coffee Beans 1 kg',
        selection_text: null,
        options: null,
        qty: 1,
        amount,
        products_total: amount,
        discount_amount: '0.00',
        fee_amount: '0.00',
        tax_amount: '0.00',
        subtotal_amount: amount,
        product_discount_id: null,
        product_fee_id: null,
        product_tax_id: null,
      },
    ],
    summary: {
      products_total: amount,
      fee_total: '0.00',
      discount_total: '0.00',
      tax_total: '0.00',
      sub_total: amount,
      initial_amount: amount,
      payment_amount: amount,
      tax_type: null,
    },
    tag_list: [],
    created_at: created,
    updated_at: created,
    status_updated_at: created,
  };
}

/** Every page of `total` records of `make(id)`, newest (highest id) first, as bytes. */
function pagesOf(key, total, make, perPage) {
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const pages = [];
  for (let p = 1; p <= totalPages; p++) {
    const hi = total - (p - 1) * perPage;
    const records = [];
    for (let id = hi; id > Math.max(hi - perPage, 0); id--) records.push(make(id));
    const pagination = { current_page: p, total_pages: totalPages, total_count: total, per_page: perPage };
    pages.push(Buffer.from(JSON.stringify({ [key]: records, pagination })));
  }
  return pages;
}

// Pages of 100 (what --all and the finders ask for) and of 1 (the runner's probe).
const made = {
  orders: { 100: pagesOf('orders', ORDERS, order, PER_PAGE_MAX) },
  customers: {
    100: pagesOf(
      'customers',
      PEOPLE.length,
      (id) => ({ id, profile_id: 1, ...customer(id - 1), created_at: created, updated_at: created }),
      PER_PAGE_MAX,
    ),
  },
};

const json = { 'content-type': 'application/json; charset=utf-8' };

function answer(req) {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/__emulator/status') return [200, Buffer.from('{"ok":true}')];
  const list = /^\/api\/v2\/profiles\/1\/(orders|customers)$/.exec(url.pathname);
  if (list) {
    const items = Number(url.searchParams.get('items') ?? 20);
    const page = Number(url.searchParams.get('page') ?? 1);
    const pages = made[list[1]][items];
    if (!pages) return [400, Buffer.from('{"error":{"message":"this stand-in serves items=100 only"}}')];
    const bytes = pages[page - 1];
    return bytes ? [200, bytes] : [404, Buffer.from('{"error":{"message":"page past the last"}}')];
  }
  const one = /^\/api\/v2\/profiles\/1\/orders\/(\d+)$/.exec(url.pathname);
  if (one && Number(one[1]) >= 1 && Number(one[1]) <= ORDERS) {
    return [200, Buffer.from(JSON.stringify({ order: order(Number(one[1])) }))];
  }
  return [404, Buffer.from('{"error":{"message":"not found"}}')];
}

const server = http.createServer((req, res) => {
  const arrived = performance.now();
  req.resume();
  req.on('end', () => {
    const [status, body] = answer(req);
    const send = () => {
      res.writeHead(status, { ...json, 'content-length': body.length });
      res.end(body);
    };
    const wait = LATENCY - (performance.now() - arrived);
    if (wait > 0) setTimeout(send, wait);
    else send();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(port), '127.0.0.1');
process.on('SIGINT', () => server.close(() => process.exit(0)));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
