// A double of the ngrok agent library (@ngrok/ngrok) for tests of the built CLI: loaded before
// it with `node --require` (NODE_OPTIONS, see ngrokDouble in cli.ts), it answers the CLI's
// require of the library. forward() opens nothing and reports NGROK_DOUBLE_URL, so the tests
// run the product's own provider (the authtoken check, the address, close) without a network.
// The product reads no variable of its own for this (issue 26 §6).
'use strict';

const Module = require('node:module');

const double = {
  async forward({ addr, authtoken }) {
    if (!authtoken) throw new Error('no authtoken');
    if (!/^[^:]+:\d+$/.test(addr)) throw new Error(`bad addr ${addr}`);
    return { url: () => process.env.NGROK_DOUBLE_URL ?? null, close: async () => {} };
  },
};

const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === '@ngrok/ngrok') return double;
  return load.call(this, request, ...rest);
};
