// The line of `billing search` in `billing --help`, apart from its description: the description
// spreads the order filters (./orders/filters.ts, with their readers and matchers), which
// top-level help must not load.

export const SEARCH_SUMMARY =
  'find orders and customers by email, name, phone, invoice id or id, best matches first';
