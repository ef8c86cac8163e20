// Starting data. `empty` has only the profiles and tokens (which are constants); `demo`
// adds customers, products and orders, the same ones on every run: a seeded PRNG picks
// them, and only their times follow the clock (spread over the last 90 days).

import { fromMinor } from '../../domain/money.js';
import { ORDER_STATUSES, type OrderStatus } from '../../domain/orders.js';
import { insertOrder, scheduleSubscription } from './orders.js';
import { addPayment, recordFirstPayment } from './payments.js';
import { type LineInput, lineTotals } from './pricing.js';
import type { EmulatorState } from './state.js';
import type { Customer, Order, Product, SeedName } from './types.js';

const DAY = 86_400_000;
const DEMO_SEED = 20_240_611;
const DEMO_ORDERS = 200;

/** Replaces the whole state with the given seed's data. */
export function applySeed(state: EmulatorState, seed: SeedName): void {
  state.clear();
  state.seed = seed;
  if (seed === 'demo') seedDemo(state);
}

/** mulberry32: small, fast, and good enough for made-up data. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type ProductSeed = Omit<Product, 'id' | 'profile_id' | 'created_at' | 'updated_at'>;
type CustomerSeed = Omit<Customer, 'id' | 'profile_id' | 'created_at' | 'updated_at'>;

// One customer a line; an empty field is null. Luca has no phone, Sofía no email.
const CUSTOMER_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'date_of_birth',
  'street',
  'city',
  'state',
  'postal_code',
  'country',
  'merchant_customer_id',
] as const;

const PROFILE_1_CUSTOMERS = customerTable(`
Anna|Schmidt|anna.schmidt@example.com|+49 30 1234567|1988-04-12|Hauptstraße 5|Berlin||10115|DE|CRM-1001
James|O'Brien|james.obrien@example.com|+353 1 555 0101|1979-11-02|12 Harcourt Street|Dublin||D02 X285|IE|CRM-1002
Marie|Dubois|marie.dubois@example.com|+33 1 55 55 01 02|1992-07-23|8 rue de Rivoli|Paris||75004|FR|CRM-1003
Luca|Rossi|luca.rossi@example.com||1985-01-30|Via Torino 21|Milano|MI|20123|IT|CRM-1004
Sofía|García||+34 91 555 0104|1990-09-15|Calle Mayor 3|Madrid||28013|ES|CRM-1005
Jan|de Vries|jan.devries@example.com|+31 20 555 0105||Prinsengracht 263|Amsterdam||1016 GV|NL|CRM-1006
Emma|Johansson|emma.johansson@example.com|+46 8 555 0106|1995-03-08|Drottninggatan 10|Stockholm||111 51|SE|CRM-1007
Noah|Wilson|noah.wilson@example.com|+44 20 7946 0107|1982-12-19|221 Baker Street|London||NW1 6XE|GB|CRM-1008
`);

const PROFILE_2_CUSTOMERS = customerTable(`
Olivia|Brown|olivia.brown@example.com|+49 40 555 0201||Jungfernstieg 1|Hamburg||20354|DE|SHOP2-1
Mateo|Lopez|mateo.lopez@example.com||1991-05-05|Carrer de Balmes 50|Barcelona||08007|ES|SHOP2-2
`);

function customerTable(text: string): CustomerSeed[] {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const cells = line.split('|');
      const entries = CUSTOMER_FIELDS.map((field, at) => [field, cells[at] || null]);
      return Object.fromEntries(entries) as CustomerSeed;
    });
}

const product = (name: string, price: string, extra: Partial<ProductSeed> = {}): ProductSeed => ({
  name,
  description: null,
  price,
  currency: 'EUR',
  product_type: 'single',
  price_locked: false,
  tax_percentage: null,
  ...extra,
});

const PROFILE_1_PRODUCTS: ProductSeed[] = [
  product('Coffee Beans 1 kg', '18.50', { description: 'Single-origin beans, roasted weekly' }),
  product('Monthly Coffee Box', '24.90', {
    description: 'Three bags of coffee every month',
    product_type: 'subscription',
  }),
  product('Espresso Machine', '399.00', { description: 'Dual boiler, 2 groups', tax_percentage: 20 }),
  product('Barista Course', '149.00', { description: 'One day, hands on', price_locked: true }),
  product('Gift Card', '50.00', { currency: 'GBP' }),
];

const PROFILE_2_PRODUCT = product('Handmade Mug', '14.00', { description: 'Stoneware, 350 ml' });

/** Relative weights of the products (same order as above) and of the statuses. */
const PRODUCT_WEIGHTS = [35, 25, 15, 10, 15];
const STATUS_WEIGHTS: Record<OrderStatus, number> = {
  draft: 15,
  pending: 25,
  registered: 8,
  active: 50,
  paused: 10,
  failed: 10,
  suspended: 6,
  rejected: 6,
  review: 5,
  complete: 40,
  cancelled: 15,
};
const CARD_SAVED: readonly OrderStatus[] = [
  'registered',
  'active',
  'paused',
  'failed',
  'suspended',
  'review',
  'complete',
];
const PAYMENTS_TAKEN: readonly OrderStatus[] = [
  'active',
  'paused',
  'failed',
  'suspended',
  'review',
  'complete',
];

function seedDemo(state: EmulatorState): void {
  const random = seededRandom(DEMO_SEED);
  const now = Math.floor(state.now() / 60_000) * 60_000;
  const setupAt = now - 120 * DAY;

  const customers1 = PROFILE_1_CUSTOMERS.map((c, at) => addCustomer(state, 1, c, setupAt + at * DAY));
  const products1 = PROFILE_1_PRODUCTS.map((p) => addProduct(state, 1, p, setupAt));
  const customers2 = PROFILE_2_CUSTOMERS.map((c) => addCustomer(state, 2, c, setupAt));
  const mug = addProduct(state, 2, PROFILE_2_PRODUCT, setupAt);
  // Every customer but Jan has a stored card, which pay_with_card charges.
  [...customers1, ...customers2].forEach((customer, at) => {
    const card = DEMO_CARDS[at % DEMO_CARDS.length];
    if (customer.last_name !== 'de Vries' && card) customer.card = { ...card };
  });

  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const weighted = <T>(items: readonly T[], weights: readonly number[]): T => {
    let roll = random() * weights.reduce((a, b) => a + b, 0);
    for (const [at, item] of items.entries()) {
      roll -= weights[at] ?? 0;
      if (roll < 0) return item;
    }
    return items[items.length - 1] as T;
  };

  const ages = Array.from({ length: DEMO_ORDERS }, () => Math.floor(random() * 90 * DAY)).sort(
    (a, b) => b - a,
  );
  const statusWeights = ORDER_STATUSES.map((status) => STATUS_WEIGHTS[status]);
  const statuses = ages.map(() => weighted(ORDER_STATUSES, statusWeights));
  // Every status appears at least once.
  ORDER_STATUSES.forEach((status, k) => {
    if (!statuses.includes(status)) statuses[10 + k * 17] = status;
  });

  // Only a subscription can be paused or suspended (orders resume refuses a single payment).
  const subscriptionOnly: readonly OrderStatus[] = ['paused', 'suspended'];
  const subscriptionProduct = products1.find((p) => p.product_type === 'subscription') as Product;
  ages.forEach((age, at) => {
    const status = statuses[at] as OrderStatus;
    const drawn = weighted(products1, PRODUCT_WEIGHTS);
    const product = subscriptionOnly.includes(status) ? subscriptionProduct : drawn;
    const qty = product.product_type === 'subscription' ? 1 : weighted([1, 2, 3], [70, 20, 10]);
    const lines: LineInput[] = [{ product, qty }];
    const extras = products1.filter(
      (p) => p.id !== product.id && p.currency === product.currency && p.product_type === 'single',
    );
    if (product.product_type === 'single' && extras.length > 0 && random() < 0.2) {
      lines.push({ product: pick(extras), qty: 1 });
    }
    addDemoOrder(state, random, {
      profileId: 1,
      invoiceId: `INV-${String(at + 1).padStart(6, '0')}`,
      status,
      customer: pick(customers1),
      lines,
      createdAt: now - age,
      now,
    });
  });

  const profile2Statuses: OrderStatus[] = ['complete', 'cancelled', 'active', 'pending', 'draft'];
  profile2Statuses.forEach((status, at) => {
    addDemoOrder(state, random, {
      profileId: 2,
      invoiceId: `SHOP2-${String(at + 1).padStart(4, '0')}`,
      status,
      customer: pick(customers2),
      lines: [{ product: mug, qty: 1 + Math.floor(random() * 3) }],
      createdAt: now - (25 - at * 5) * DAY,
      now,
    });
  });
  chargeTwice(state, customers1[1] as Customer);
}

/**
 * The support journey's e-mail, "I was charged twice" (README, "For support staff"): the
 * latest completed single-payment order of James O'Brien carries a second debit of the same
 * amount, 90 seconds after the first. Added last, so no other record's id moves.
 */
function chargeTwice(state: EmulatorState, customer: Customer): void {
  const orders = [...state.orders.values()].filter(
    (o) =>
      o.profile_id === 1 &&
      o.customer_id === customer.id &&
      o.status === 'complete' &&
      o.order_type === 'single_payment',
  );
  const order = orders.sort((a, b) => b.id - a.id)[0];
  const first = order && state.paymentsOf(order.id).find((p) => p.kind === 'debit');
  if (!order || !first) return;
  const at = new Date(Date.parse(first.created_at) + 90_000).toISOString();
  addPayment(state, order, { kind: 'debit', amount: first.amount, at });
}

function addDemoOrder(
  state: EmulatorState,
  random: () => number,
  spec: {
    profileId: number;
    invoiceId: string;
    status: OrderStatus;
    customer: Customer;
    lines: LineInput[];
    createdAt: number;
    now: number;
  },
): void {
  const first = spec.lines[0] as LineInput;
  const isSubscription = first.product.product_type === 'subscription';
  const statusUpdatedAt =
    spec.status === 'draft'
      ? spec.createdAt
      : Math.min(spec.createdAt + Math.floor(random() * 3 * DAY), spec.now);
  const order = insertOrder(state, {
    profileId: spec.profileId,
    invoiceId: spec.invoiceId,
    orderType: isSubscription ? 'subscription' : 'single_payment',
    status: spec.status,
    currency: first.product.currency,
    customer: spec.customer,
    lines: spec.lines,
    description: isSubscription
      ? `${first.product.name} subscription`
      : random() < 0.5
        ? 'Web shop order'
        : null,
    cardSaved: CARD_SAVED.includes(spec.status),
    createdAt: spec.createdAt,
    statusUpdatedAt,
    subscription: isSubscription
      ? {
          interval: 'MONTH',
          scheduled_interval: 1,
          start_date: new Date(spec.createdAt).toISOString(),
          repeated_amount: fromMinor(lineTotals(first).subtotal),
        }
      : null,
  });
  seedFirstPayment(state, order, statusUpdatedAt);
  if (isSubscription) {
    const paid = PAYMENTS_TAKEN.includes(spec.status);
    scheduleSubscription(state, order, spec.createdAt, (due) =>
      paid && due <= spec.now ? 'paid' : 'scheduled',
    );
  }
}

const DEMO_CARDS = [
  { brand: 'visa', last4: '4242', expiry: '12/30' },
  { brand: 'mastercard', last4: '4444', expiry: '08/29' },
  { brand: 'amex', last4: '8431', expiry: '03/31' },
];

/**
 * An order that has collected its first payment carries its record (a failed order, a
 * declined one); every fourth active single-payment order is pre-auth-only, its payment a
 * pre-authorisation waiting for capture.
 */
function seedFirstPayment(state: EmulatorState, order: Order, at: number): void {
  if (!PAYMENTS_TAKEN.includes(order.status)) return;
  if (order.order_type === 'single_payment' && order.status === 'active' && order.id % 4 === 0) {
    order.capture_mode = 'preauth';
  }
  recordFirstPayment(state, order, {
    status: order.status === 'failed' ? 'failed' : 'succeeded',
    at: new Date(at).toISOString(),
  });
}

function addCustomer(state: EmulatorState, profileId: number, seed: CustomerSeed, at: number): Customer {
  const time = new Date(at).toISOString();
  return state.addCustomer({
    ...seed,
    id: state.nextId('customer'),
    profile_id: profileId,
    created_at: time,
    updated_at: time,
  });
}

function addProduct(state: EmulatorState, profileId: number, seed: ProductSeed, at: number): Product {
  const time = new Date(at).toISOString();
  return state.addProduct({
    ...seed,
    id: state.nextId('product'),
    profile_id: profileId,
    created_at: time,
    updated_at: time,
  });
}
