// Help that leads to the command: `billing help WORD` finds the commands that do what a person
// names (the words of each command's name, description and its description's `words`, and a short list of what people
// say instead), and a command typed under the wrong group (`orders refund`) is answered with
// the command that does it. Loaded only for `billing help WORD` and an unknown command.

import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { wrapWords } from './help-layout.js';
import { wordsOf } from './kit/declaration.js';

/**
 * What people say → the words of the commands that do it, the likeliest first ("a b": the
 * end of a command's path, as customers get). Not a list of commands: each target is checked to be
 * said by a declared command, and each line of POINTERS to be one with its flags
 * (test/e2e/descriptions.test.ts).
 */
export const SYNONYMS: Record<string, readonly string[]> = {
  refund: ['refund'],
  reimburse: ['refund'],
  moneyback: ['refund'],
  chargeback: ['refund'],
  twice: ['customers get', 'refund'],
  double: ['customers get', 'refund'],
  cancel: ['cancel'],
  unsubscribe: ['cancel'],
  terminate: ['cancel'],
  stop: ['cancel', 'pause'],
  resend: ['link', 'email', 'sms'],
  send: ['link', 'email', 'sms'],
  link: ['link'],
  email: ['email'],
  mail: ['email'],
  text: ['sms'],
  sms: ['sms'],
  subscription: ['subscription', 'subscribe', 'schedule'],
  recurring: ['subscription', 'schedule'],
  renewal: ['subscription', 'schedule'],
  plan: ['subscription', 'schedule'],
  charge: ['pay', 'execute', 'charge', 'collect'],
  bill: ['pay', 'execute', 'charge'],
  debit: ['pay', 'execute', 'charge'],
  pay: ['pay', 'link', 'charge'],
  fail: ['failed', 'execute', 'link'],
  failed: ['failed', 'execute', 'link'],
  decline: ['failed', 'execute', 'link'],
  unpaid: ['failed', 'link', 'pay'],
  invoice: ['invoice', 'search'],
  find: ['search', 'list'],
  lookup: ['search', 'get'],
  history: ['happened', 'timeline'],
  happened: ['happened', 'timeline'],
  events: ['happened', 'webhooks'],
  restart: ['resume'],
  total: ['total'],
  sum: ['total'],
  revenue: ['total', 'revenue'],
  mrr: ['revenue'],
  accounting: ['total', 'export'],
  accountant: ['total', 'export'],
  export: ['export'],
  csv: ['export'],
  move: ['reschedule', 'billing day'],
  day: ['billing day', 'reschedule'],
  cycle: ['billing day', 'reschedule'],
  customer: ['customer'],
  payment: ['payment'],
};

/** Lines that are not one command: how to do what the word names with the flags of a list. */
export const POINTERS: Record<string, readonly [string, string][]> = {
  subscription: [
    ['billing orders list --type subscription', 'the subscriptions: orders of type subscription'],
  ],
  refund: [
    ['billing payments list --kind refund', 'the refunds made'],
    ['billing customers get ID', "a customer's payments, oldest first (a double charge shows)"],
  ],
  twice: [['billing customers get ID', "a customer's payments, oldest first; warns of two subscriptions"]],
  failed: [
    ['billing orders list --status failed --since monday', 'the orders that failed this week'],
    ['billing orders list --status failed -o ndjson | billing links email --file -', 'a new link to each'],
  ],
  email: [
    ['billing customers list --email X', 'a customer by e-mail'],
    ['billing payments list --email X', "that customer's payments"],
  ],
  invoice: [['billing orders get INV-000123', 'an order by its invoice id']],
  total: [
    [
      'billing payments list --during october --kind debit --total',
      'what was taken in October, per currency',
    ],
    [
      'billing orders list --type subscription --status active --total',
      'active subscriptions, monthly revenue',
    ],
  ],
  revenue: [
    [
      'billing orders list --type subscription --status active --total',
      'active subscriptions, monthly revenue',
    ],
  ],
  export: [
    [
      'billing payments list --during last-month --expand order,customer -o csv',
      'payments with invoice id, customer and e-mail',
    ],
  ],
  day: [
    ['billing schedule reschedule ID DATE', 'move one payment; it says where the cycle stays'],
    [
      'billing schedule update ORDER --interval MONTH',
      'after a reschedule: the cycle starts at that payment',
    ],
  ],
};

/** A word as the tables hold it: lower case, no hyphen (e-mail → email), singular. */
function norm(word: string): string {
  const w = word.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/** The key of SYNONYMS a word is a form of (charged → charge, refunded → refund), or the word. */
function stem(word: string): string {
  const w = norm(word);
  const forms = [w, w.replace(/d$/, ''), w.replace(/ed$/, ''), w.replace(/ing$/, ''), w.replace(/ing$/, 'e')];
  return forms.find((f) => f in SYNONYMS) ?? w;
}

/** Every command that does something (not a group, not help), with its path. */
function leaves(program: Command): { path: string; name: string; cmd: Command }[] {
  const found: { path: string; name: string; cmd: Command }[] = [];
  const walk = (cmd: Command, path: string) => {
    for (const sub of cmd.commands) {
      if (sub.name() === 'help' || sub.name().startsWith('__')) continue;
      const at = `${path} ${sub.name()}`;
      if (sub.commands.length > 0) walk(sub, at);
      else found.push({ path: at, name: sub.name(), cmd: sub });
    }
  };
  walk(program, 'billing');
  return found;
}

function targets(word: string): readonly string[] {
  const w = stem(word);
  return SYNONYMS[w] ?? [w];
}

/** Does a text hold a word: the word itself, or a longer form of it (refund: refunds, refunded). */
function holds(text: string, word: string): boolean {
  return text
    .toLowerCase()
    .split(/[^a-z0-9-]+/)
    .map((t) => t.replace(/-/g, ''))
    .some((t) => t === word || (word.length >= 4 && t.startsWith(word)));
}

/**
 * The commands that do what the words name, best first: a command named so, then one whose
 * group is, then one whose description holds it; a likelier meaning of the word counts more.
 */
export function commandsFor(program: Command, words: readonly string[]) {
  const scored = leaves(program).map((leaf) => {
    let score = 0;
    for (const word of words) {
      const best = targets(word).map((w, i) => {
        const named = w.includes(' ') ? leaf.path.endsWith(` ${w}`) : norm(leaf.name) === w;
        const found = named ? 10 : holds(leaf.path, w) ? 4 : 0;
        const described = `${leaf.cmd.description()} ${wordsOf(leaf.cmd).join(' ')}`;
        return (found + (holds(described, w) ? 2 : 0)) / (i + 1);
      });
      score += Math.max(...best);
    }
    return { ...leaf, score };
  });
  return scored.filter((s) => s.score > 0).sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
}

/** `billing help WORD…` when the words are no command or topic: the commands that do it, or undefined. */
export function helpFor(program: Command, words: readonly string[], width = 80): string | undefined {
  const found = commandsFor(program, words).slice(0, 6);
  const pointers = words.flatMap((w) => POINTERS[stem(w)] ?? []);
  if (found.length === 0 && pointers.length === 0) return undefined;
  const commands = found.map((f): [string, string] => [f.path, firstClause(f.cmd.description())]);
  const also = pointers.length > 0 ? `\nWith the flags of a command:\n${table(pointers, width)}\n` : '';
  return (
    `Commands for "${words.join(' ')}", the likeliest first:\n${table(commands, width)}\n${also}` +
    `\n${found[0] ? `${found[0].path} --help` : 'billing COMMAND --help'} says more.\n`
  );
}

/**
 * Rows of a command and what it does, the text wrapped under its column (nothing is cut); a
 * command too long to leave the text room has it on the lines below.
 */
function table(rows: readonly [string, string][], width: number): string {
  const left = Math.max(...rows.map(([c]) => c.length)) + 2;
  const below = left + 2 + 10 > width;
  const indent = below ? 6 : left + 2;
  const pad = ' '.repeat(indent);
  return rows
    .map(([command, what]) => {
      const [first = '', ...more] = wrapWords(what, width - indent);
      const head = below ? `  ${command}\n${pad}${first}` : `  ${command.padEnd(left)}${first}`;
      return [head, ...more.map((line) => `${pad}${line}`)].join('\n');
    })
    .join('\n');
}

/** A description up to its first aside: "refund a payment or capture, in full or in part". */
function firstClause(description: string): string {
  return description.split(/; |: /)[0] ?? description;
}

/**
 * An unknown command (`billing orders refund 174`): the command elsewhere whose name is the
 * word or what it means, before commander's spelling neighbour. Undefined when none does it.
 */
export function leadTo(
  program: Command,
  group: Command,
  word: string,
  o: { spelling?: string; next?: string } = {},
): UsageError | undefined {
  const wanted = targets(word);
  const doing = leaves(program).filter((l) => wanted.includes(norm(l.name)));
  const pointers = POINTERS[stem(word)] ?? [];
  if (doing.length === 0 && pointers.length === 0) return undefined;
  const where = group.parent ? ` under ${pathOf(group)}` : '';
  const commands = doing.map((d) => d.path);
  const ways = commands.length > 0 ? commands.join(', or ') : (pointers[0]?.[0] ?? '');
  const neighbour = o.spelling ? `; by spelling: ${pathOf(group)} ${o.spelling}` : '';
  // orders refund 174: a payment command takes a payment id; the order's payments have them.
  const id = o.next && /^\d+$/.test(o.next) ? o.next : 'ID';
  const payments =
    group.name() === 'orders' && commands[0]?.startsWith('billing payments ')
      ? `; it takes a payment id: billing orders payments ${id} lists the order's`
      : '';
  return new UsageError(`unknown command '${word}'${where}: to ${word}, use ${ways}`, {
    hint: `${commands[0] ?? ways.split(' ').slice(0, 3).join(' ')} --help says how${payments}${neighbour}`,
  });
}

function pathOf(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
