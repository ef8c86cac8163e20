import { describe, expect, it } from 'vitest';
import { routes } from '../../src/api/routes.js';

const NAMES = [
  'listOrders',
  'getOrder',
  'createOrder',
  'renewCheckout',
  'getCheckout',
  'sendEmailLink',
  'sendSmsLink',
  'paymentLink',
  'payWithCard',
  'capturePayment',
  'reversePayment',
  'refundPayment',
  'getPayment',
  'listOrderPayments',
  'listScheduledPayments',
  'createSingleOrderV1',
  'createSubscriptionOrderV1',
  'listCustomers',
  'getCustomer',
  'createCustomer',
  'deleteCustomer',
  'listProducts',
  'getProduct',
  'createProduct',
  'deleteProduct',
  'pauseOrder',
  'resumeOrder',
  'cancelOrder',
  'executeScheduledPayment',
  'skipScheduledPayment',
  'rescheduleScheduledPayment',
  'mergeScheduledPayments',
  'updateScheduledPayments',
];

/** Method and path exactly as the interface document shows them (v2 relative to the profile). */
const SHOWN: Record<string, [string, string]> = {
  listOrders: ['GET', '/orders'],
  getOrder: ['GET', '/orders/{id}'],
  createOrder: ['POST', '/orders'],
  renewCheckout: ['POST', '/orders/{id}/custom_checkout'],
  sendEmailLink: ['POST', '/orders/{id}/send_email_link'],
  sendSmsLink: ['POST', '/orders/{id}/send_sms_link'],
  payWithCard: ['POST', '/orders/{id}/pay_with_card'],
  capturePayment: ['POST', '/payments/{id}/capture'],
  reversePayment: ['POST', '/payments/{id}/reverse'],
  refundPayment: ['POST', '/payments/{id}/refund'],
  listOrderPayments: ['GET', '/orders/{id}/payments'],
  listScheduledPayments: ['GET', '/orders/{id}/scheduled_payments'],
  createSingleOrderV1: ['POST', '/orders/create_single_order'],
  createSubscriptionOrderV1: ['POST', '/orders/create_subscription_order'],
};

describe('routes', () => {
  it('has every route the tool calls, each named for its key', () => {
    expect(Object.keys(routes).sort()).toEqual([...NAMES].sort());
    for (const [key, route] of Object.entries(routes)) {
      expect(route.name).toBe(key);
      expect(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).toContain(route.method);
      expect(route.path).toMatch(/^\//);
    }
  });

  it('puts every v2 route under /profiles/{profile_id} and no v1 route', () => {
    for (const route of Object.values(routes)) {
      if (route.version === 'v2') expect(route.path.startsWith('/profiles/{profile_id}/')).toBe(true);
      else expect(route.path).not.toContain('{profile_id}');
    }
  });

  it('shows the paths and methods of the interface document, not assumed', () => {
    for (const [name, [method, path]] of Object.entries(SHOWN)) {
      const route = routes[name as keyof typeof routes];
      expect(route.assumed, name).toBe(false);
      expect(route.method, name).toBe(method);
      const relative = route.version === 'v2' ? route.path.replace('/profiles/{profile_id}', '') : route.path;
      expect(relative, name).toBe(path);
    }
    expect(routes.createSingleOrderV1.version).toBe('v1');
    expect(routes.createSubscriptionOrderV1.version).toBe('v1');
  });

  it('marks every route the document does not show as assumed', () => {
    const assumed = Object.values(routes)
      .filter((r) => r.assumed)
      .map((r) => r.name)
      .sort();
    expect(assumed).toEqual(NAMES.filter((n) => !(n in SHOWN)).sort());
    expect(routes.paymentLink).toMatchObject({ method: 'POST', assumed: true });
    expect(routes.getPayment).toMatchObject({ method: 'GET', path: '/profiles/{profile_id}/payments/{id}' });
  });

  it('names the body root key of the creates', () => {
    expect(routes.createOrder.rootKey).toBe('order');
    expect(routes.createSingleOrderV1.rootKey).toBe('order');
    expect(routes.createSubscriptionOrderV1.rootKey).toBe('order');
    expect(routes.createCustomer.rootKey).toBe('customer');
    expect(routes.createProduct.rootKey).toBe('product');
  });
});
