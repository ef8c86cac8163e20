// Issue 17 §6: links the service sends are checked before they are printed as links, drawn
// as QR codes or PNGs, opened, or put in snippets. Only https (and http to this machine) gets
// through; anything else is exit 8 naming the field; a foreign host is shown with a warning.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliResult, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { CREATE_ORDER, hostileServices, send } from '../hostile/service.js';

const serve = hostileServices();

const HOSTILE = [
  'javascript:alert(document.cookie)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  'http://evil.example/pay',
  'https://pay.example/\x1b[31mred',
  'https://pay.example/a\nb',
  'https://user:pw@pay.example/',
];

/** A service whose order 12 is pending, with a checkout and a payment link of `link`. */
function service(link: string) {
  return serve((req, res) => {
    const checkout = {
      id: 'chk_1',
      integrity: 'sha384-abc',
      form_action: link,
      timestamp: new Date().toISOString(),
      expires_in: 1200,
    };
    if (req.path.endsWith('/custom_checkout')) return send(res, 200, { checkout });
    if (req.path.endsWith('/payment_link') || req.path.endsWith('/send_email_link')) {
      return send(res, 200, {
        payment_link: link,
        order: { id: 12, status: 'pending' },
        message: { to: 'a@example.com' },
      });
    }
    if (req.method === 'POST' && req.path.endsWith('/orders')) {
      return send(res, 201, { order: { id: 12, status: 'draft' }, checkout });
    }
    return send(res, 200, { order: { id: 12, status: 'pending', currency: 'EUR' } });
  });
}

describe('a link from the service that is not https is exit 8, naming the field', () => {
  // The first link runs every command as the built CLI, a process; the others run them in this
  // process (test/helpers/in-process.ts: main() of src/cli.ts, against the same service over
  // HTTP): the check of a link is the command's, not the process's. `checkout open` serves until
  // stopped when a link gets through, so it stays a process for every link.
  for (const [at, link] of HOSTILE.entries()) {
    it(`${JSON.stringify(link)}`, async () => {
      const h = await service(link);
      const gateway = { BILLING_GATEWAY_URL: `${new URL(h.service.baseUrl).origin}/gateway` };
      const cli = (
        args: string[],
        o: { env?: Record<string, string | undefined> } = {},
      ): Promise<CliResult> => (at === 0 ? h.cli(args, o) : runInProcess(args, { env: o.env ?? h.env() }));

      const snippet = await cli(['checkout', 'snippet', '12'], { env: h.env(gateway) });
      expect(snippet.code, snippet.stderr).toBe(8);
      expect(snippet.stderr).toContain('checkout.form_action');
      expect(snippet.stdout).not.toContain('<form');

      const open = await h.cli(['checkout', 'open', '12', '--port', '0', '--no-browser'], {
        env: h.env(gateway),
      });
      expect(open.code, open.stderr).toBe(8);
      expect(open.stdout).toBe('');

      const qr = await cli(['links', 'url', '12', '--qr']);
      expect(qr.code, qr.stderr).toBe(8);
      expect(qr.stderr).toContain('payment_link');
      expect(qr.stdout).toBe('');

      const png = join(tempDir(), 'link.png');
      const image = await cli(['links', 'url', '12', '--png', png]);
      expect(image.code).toBe(8);
      expect(existsSync(png)).toBe(false);

      const email = await cli(['links', 'email', '12']);
      expect(email.code).toBe(8);
      expect(email.stderr).toContain('payment_link');
      expect(email.stdout).toBe('');

      const created = await cli([...CREATE_ORDER, '--checkout']);
      expect(created.code).toBe(8);
      expect(created.stderr).toContain('checkout.form_action');
      expect(created.stderr).toContain('order 12 was created');
      // One line each, the link shown escaped: no raw control character reaches the terminal.
      for (const r of [snippet, qr, email, created]) expect(r.stderr).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f]/);
    });
  }
});

describe('a link to a host that is neither the service nor its gateway', () => {
  it('is shown with a warning', async () => {
    const h = await service('https://pay.elsewhere.example/checkout/12');
    const gateway = { BILLING_GATEWAY_URL: `${new URL(h.service.baseUrl).origin}/gateway` };
    const snippet = await h.cli(['checkout', 'snippet', '12'], { env: h.env(gateway) });
    expect(snippet.code, snippet.stderr).toBe(0);
    expect(snippet.stdout).toContain('action="https://pay.elsewhere.example/checkout/12"');
    expect(snippet.stderr).toContain(
      'warning: the checkout.form_action points to pay.elsewhere.example, which is neither the service',
    );
    // The service's addresses and its gateway share one host: it is named once.
    expect(snippet.stderr).toContain('which is neither the service (127.0.0.1) nor its gateway');
    const url = await h.cli(['links', 'url', '12', '--qr']);
    expect(url.code).toBe(0);
    expect(url.stderr).toContain('warning: the payment_link points to pay.elsewhere.example');
  });

  it('a link to the service itself (http on this machine) has no warning', async () => {
    const h = await serve((req, res) => {
      const link = `${new URL(h.service.baseUrl).origin}/portal/12`;
      if (req.path.endsWith('/payment_link')) return send(res, 200, { payment_link: link });
      return send(res, 200, { order: { id: 12, status: 'pending' } });
    });
    const url = await h.cli(['links', 'url', '12', '--qr']);
    expect(url.code, url.stderr).toBe(0);
    expect(url.stderr).not.toContain('warning');
  });
});
