// The command groups made from their folders: each group's name and line, for `billing --help`,
// and the lazy import of its verbs, built only when the command line names the group (or for
// completion and `billing help WORD`, every group). A group's verbs are the command files of its
// folder, listed by the build (scripts/commands-list.mjs). Apart from the top-level commands
// (./index.ts), so that a run of a group's command loads none of their descriptions.

import type { Group } from '../cli/kit/verb.js';

export const FOLDER_GROUPS = {
  config: {
    name: 'config',
    summary: 'read and change the config',
    examples: [
      'billing config list',
      'billing config set base_url https://api.example/api/v2 --env sandbox',
      'billing config use local',
      'billing config get profile_id',
    ],
    verbs: async () => (await import('commands:./config')).VERBS,
  },
  orders: {
    name: 'orders',
    summary: 'list, inspect and create orders',
    verbs: async () => (await import('commands:./orders')).VERBS,
  },
  customers: {
    name: 'customers',
    summary: 'list, inspect and create customers',
    verbs: async () => (await import('commands:./customers')).VERBS,
  },
  products: {
    name: 'products',
    summary: 'list, inspect and create products',
    verbs: async () => (await import('commands:./products')).VERBS,
  },
  payments: {
    name: 'payments',
    summary: 'look up, capture, reverse and refund payments (one, or many from a file)',
    verbs: async () => (await import('commands:./payments')).VERBS,
  },
  schedule: {
    name: 'schedule',
    summary: 'act on scheduled payments: execute, skip, reschedule, merge, update (see orders schedule ID)',
    examples: [
      'billing orders schedule 1042',
      'billing schedule execute 311',
      'billing schedule reschedule 312 2027-03-15',
      'billing schedule update 1042 --amount 29.90 --interval QUARTER',
    ],
    help:
      '\nThe interface document does not show these paths or payloads; the tool assumes them\n' +
      '(POST /scheduled_payments/{id}/execute|skip|reschedule, POST /orders/{id}/scheduled_payments/merge,\n' +
      'PATCH /orders/{id}/scheduled_payments): see src/domain/routes.ts. A payment or an order in the wrong\n' +
      'state is answered 422 with the reason (exit 7).\n',
    verbs: async () => (await import('commands:./schedule')).VERBS,
  },
  checkout: {
    name: 'checkout',
    summary: "an order's checkout: the payment form for the merchant's own site",
    examples: [
      'billing orders create --customer 3 --product 7 --currency EUR --invoice-id INV-1 --checkout',
      'billing checkout open 1042',
      'billing checkout snippet 1042 --renew > payment-form.html',
    ],
    verbs: async () => (await import('commands:./checkout')).VERBS,
  },
  links: {
    name: 'links',
    summary: 'payment links: send one by email or SMS, or show it (as a QR code too)',
    examples: [
      'billing links email 1042',
      'billing links url 1042 --qr',
      'billing links url 1042 --png pay.png',
    ],
    help:
      '\nA link moves a draft order to pending. It opens the order portal: the order, the amount\n' +
      'due, the billing history and a pay button. The emulator keeps what it "sent" in its\n' +
      'outbox: billing emulator outbox.\n',
    verbs: async () => (await import('commands:./links')).VERBS,
  },
  webhooks: {
    name: 'webhooks',
    summary: 'receive, forward, send and check order-event webhooks',
    examples: [
      'billing --env local webhooks listen --forward-to http://localhost:3000/webhooks',
      'billing --env local webhooks trigger order.active',
      'billing webhooks verify --secret-file secret.txt --header "t=…,v1=…" --file body.json',
    ],
    verbs: async () => (await import('commands:./webhooks')).VERBS,
  },
  emulator: {
    name: 'emulator',
    summary: 'run the Merchant Billing Service locally, offline',
    examples: [
      'billing emulator start --seed demo            # in the foreground; Ctrl-C stops it',
      'billing emulator start --seed demo --detach   # in the background',
      'billing --env local orders list',
      'billing emulator stop',
    ],
    verbs: async () => (await import('commands:./emulator')).VERBS,
  },
} as const satisfies Record<string, Group>;
