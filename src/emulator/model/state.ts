// The emulator's in-memory data and the indexes that keep reads cheap. Everything that
// changes records goes through here so that the indexes cannot drift from the maps.

import type { OrderStatus } from '../../domain/orders.js';
import { OrderStore, type OrderTexts } from './order-store.js';
import type { Customer, Order, Payment, Product, ScheduledPayment, SeedName } from './types.js';

/** An order moved from one status to another at `at` (ISO 8601, the emulator's clock). */
export interface StatusChange {
  order: Order;
  from: OrderStatus;
  to: OrderStatus;
  at: string;
}

export interface NextIds {
  order: number;
  customer: number;
  product: number;
  line: number;
  scheduled_payment: number;
  payment: number;
}

/** What a data file holds. */
export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT;
  seed: SeedName;
  /** The fixture applied after the seed (its name), if any; absent in files written before it was kept. */
  fixture?: string | null;
  clock_offset_ms: number;
  next_ids: NextIds;
  customers: Customer[];
  products: Product[];
  orders: Order[];
  scheduled_payments: ScheduledPayment[];
  payments: Payment[];
}

export const SNAPSHOT_FORMAT = 'billing-emulator/1';

/** Orders of a data file kept as their texts (OrderStore): the n-th has ids[n], profiles[n], invoices[n]. */
export interface LoadedOrders {
  texts: OrderTexts;
  ids: number[];
  profiles: number[];
  invoices: string[];
}

/** What the data file is written from: the snapshot but its orders, and each order as OrderStore.stored() gives it. */
export interface StoredForm {
  head: Omit<Snapshot, 'orders'>;
  orders: Iterable<Buffer | Order>;
}

interface ProfileIndex {
  /** Ids in creation order (ascending), so a newest-first page is a slice from the end. */
  orderIds: number[];
  customerIds: number[];
  productIds: number[];
  invoiceIds: Map<string, number>;
}

function freshIds(): NextIds {
  return { order: 1, customer: 1, product: 1, line: 1, scheduled_payment: 1, payment: 1 };
}

export class EmulatorState {
  /** Which seed the current data came from. */
  seed: SeedName = 'empty';
  /** The fixture applied after the seed (what it is named by, e.g. its file), or null. */
  fixture: string | null = null;
  /** Added to the wall clock; advancing the clock moves this. */
  clockOffsetMs = 0;
  nextIds: NextIds = freshIds();

  readonly customers = new Map<number, Customer>();
  readonly products = new Map<number, Product>();
  readonly orders = new OrderStore();
  readonly scheduledPayments = new Map<number, ScheduledPayment>();
  readonly payments = new Map<number, Payment>();

  private readonly profiles = new Map<number, ProfileIndex>();
  /** How many orders use each customer and product; counted on first use (every order read). */
  private usage: { customers: Map<number, number>; products: Map<number, number> } | null = null;
  private readonly schedules = new Map<number, number[]>();
  private readonly orderPayments = new Map<number, number[]>();
  private readonly listeners: Array<() => void> = [];
  private readonly statusListeners: Array<(change: StatusChange) => void> = [];

  /** While set, the clock stands still there and only advanceClock moves it (a fixture's stories are played so). */
  stoppedAt: number | null = null;

  /** The emulator's clock, in epoch milliseconds. */
  now(): number {
    return this.stoppedAt ?? Date.now() + this.clockOffsetMs;
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  advanceClock(ms: number): void {
    if (this.stoppedAt !== null) this.stoppedAt += ms;
    else this.clockOffsetMs += ms;
    this.markChanged();
  }

  nextId(kind: keyof NextIds): number {
    const id = this.nextIds[kind];
    this.nextIds[kind] = id + 1;
    return id;
  }

  /** Counts markChanged(): a text made of the state at one count is the state's while it holds. */
  generation = 0;

  /** Tells the listeners (the data file writer) that something changed. */
  markChanged(): void {
    this.generation += 1;
    for (const listener of this.listeners) listener();
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * The one way an order changes status: records when, and tells the status listeners
   * (webhook delivery) with the order as it is now. A move to the same status is no change.
   */
  setOrderStatus(order: Order, to: OrderStatus): StatusChange | undefined {
    const from = order.status;
    if (from === to) return undefined;
    const at = this.nowIso();
    order.status = to;
    order.status_updated_at = at;
    order.updated_at = at;
    const change: StatusChange = { order, from, to, at };
    for (const listener of this.statusListeners) listener(change);
    this.markChanged();
    return change;
  }

  onStatusChange(listener: (change: StatusChange) => void): void {
    this.statusListeners.push(listener);
  }

  private index(profileId: number): ProfileIndex {
    let index = this.profiles.get(profileId);
    if (!index) {
      index = { orderIds: [], customerIds: [], productIds: [], invoiceIds: new Map() };
      this.profiles.set(profileId, index);
    }
    return index;
  }

  // Customers

  addCustomer(customer: Customer): Customer {
    this.customers.set(customer.id, customer);
    insertSorted(this.index(customer.profile_id).customerIds, customer.id);
    return customer;
  }

  findCustomer(profileId: number, id: number): Customer | undefined {
    const customer = this.customers.get(id);
    return customer?.profile_id === profileId ? customer : undefined;
  }

  customerIds(profileId: number): readonly number[] {
    return this.index(profileId).customerIds;
  }

  removeCustomer(customer: Customer): void {
    this.customers.delete(customer.id);
    removeSorted(this.index(customer.profile_id).customerIds, customer.id);
  }

  ordersUsingCustomer(id: number): number {
    return this.usageCounts().customers.get(id) ?? 0;
  }

  // Products

  addProduct(product: Product): Product {
    this.products.set(product.id, product);
    insertSorted(this.index(product.profile_id).productIds, product.id);
    return product;
  }

  findProduct(profileId: number, id: number): Product | undefined {
    const product = this.products.get(id);
    return product?.profile_id === profileId ? product : undefined;
  }

  productIds(profileId: number): readonly number[] {
    return this.index(profileId).productIds;
  }

  removeProduct(product: Product): void {
    this.products.delete(product.id);
    removeSorted(this.index(product.profile_id).productIds, product.id);
  }

  ordersUsingProduct(id: number): number {
    return this.usageCounts().products.get(id) ?? 0;
  }

  private usageCounts(): { customers: Map<number, number>; products: Map<number, number> } {
    if (!this.usage) {
      this.usage = { customers: new Map(), products: new Map() };
      for (const order of this.orders.readOnly()) countUsage(this.usage, order);
    }
    return this.usage;
  }

  // Orders

  addOrder(order: Order): Order {
    const index = this.index(order.profile_id);
    this.orders.set(order);
    insertSorted(index.orderIds, order.id);
    index.invoiceIds.set(order.invoice_id, order.id);
    if (this.usage) countUsage(this.usage, order);
    return order;
  }

  findOrder(profileId: number, id: number): Order | undefined {
    const order = this.orders.get(id);
    return order?.profile_id === profileId ? order : undefined;
  }

  orderIds(profileId: number): readonly number[] {
    return this.index(profileId).orderIds;
  }

  invoiceTaken(profileId: number, invoiceId: string): boolean {
    return this.index(profileId).invoiceIds.has(invoiceId);
  }

  // Scheduled payments and payments

  addScheduledPayment(payment: ScheduledPayment): ScheduledPayment {
    this.scheduledPayments.set(payment.id, payment);
    pushTo(this.schedules, payment.order_id, payment.id);
    return payment;
  }

  scheduleOf(orderId: number): ScheduledPayment[] {
    return (this.schedules.get(orderId) ?? []).flatMap((id) => this.scheduledPayments.get(id) ?? []);
  }

  addPayment(payment: Payment): Payment {
    this.payments.set(payment.id, payment);
    pushTo(this.orderPayments, payment.order_id, payment.id);
    return payment;
  }

  paymentsOf(orderId: number): Payment[] {
    return (this.orderPayments.get(orderId) ?? []).flatMap((id) => this.payments.get(id) ?? []);
  }

  counts(): { orders: number; customers: number; products: number } {
    return { orders: this.orders.size, customers: this.customers.size, products: this.products.size };
  }

  /** Forgets every record and restarts the ids and the clock. */
  clear(): void {
    this.clockOffsetMs = 0;
    this.nextIds = freshIds();
    for (const map of [
      this.customers,
      this.products,
      this.orders,
      this.scheduledPayments,
      this.payments,
      this.profiles,
      this.schedules,
      this.orderPayments,
    ]) {
      map.clear();
    }
    this.usage = null;
  }

  snapshot(): Snapshot {
    const { head } = this.storedForm();
    return { ...head, orders: [...this.orders.values()] };
  }

  /** The snapshot as the data file is written from it: orders still texts stay their bytes. */
  storedForm(): StoredForm {
    return {
      head: {
        format: SNAPSHOT_FORMAT,
        seed: this.seed,
        fixture: this.fixture,
        clock_offset_ms: this.clockOffsetMs,
        next_ids: { ...this.nextIds },
        customers: [...this.customers.values()],
        products: [...this.products.values()],
        scheduled_payments: [...this.scheduledPayments.values()],
        payments: [...this.payments.values()],
      },
      orders: this.orders.stored(),
    };
  }

  /** Replaces the state by the snapshot's; `loaded` (its orders still texts) follow its orders. */
  restore(snapshot: Snapshot, loaded?: LoadedOrders): void {
    this.clear();
    this.seed = snapshot.seed;
    this.fixture = snapshot.fixture ?? null;
    this.clockOffsetMs = snapshot.clock_offset_ms;
    this.nextIds = { ...freshIds(), ...snapshot.next_ids };
    for (const customer of snapshot.customers) this.addCustomer(customer);
    for (const product of snapshot.products) this.addProduct(product);
    for (const order of snapshot.orders) this.addOrder(order);
    if (loaded) {
      const { ids, profiles, invoices } = loaded;
      for (let n = 0; n < ids.length; n++) {
        const index = this.index(profiles[n] as number);
        insertSorted(index.orderIds, ids[n] as number);
        index.invoiceIds.set(invoices[n] as string, ids[n] as number);
      }
      this.orders.load(loaded.texts, ids);
    }
    for (const payment of snapshot.scheduled_payments) this.addScheduledPayment(payment);
    for (const payment of snapshot.payments) this.addPayment(payment);
  }
}

function countUsage(
  usage: { customers: Map<number, number>; products: Map<number, number> },
  order: Order,
): void {
  bump(usage.customers, order.customer_id);
  for (const productId of new Set(order.lines.map((line) => line.product_id)))
    bump(usage.products, productId);
}

function bump(map: Map<number, number>, key: number): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function pushTo(map: Map<number, number[]>, key: number, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Ids almost always arrive in increasing order, so this is a push in practice. */
function insertSorted(ids: number[], id: number): void {
  let at = ids.length;
  while (at > 0 && (ids[at - 1] ?? 0) > id) at--;
  ids.splice(at, 0, id);
}

function removeSorted(ids: number[], id: number): void {
  const at = ids.indexOf(id);
  if (at >= 0) ids.splice(at, 1);
}
