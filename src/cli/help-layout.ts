// The layout of every --help (gh's): a command's own arguments, options and subcommands first
// (the root: its commands before its options), then the options every command inherits in a
// short block of their names; billing --help says what they do. Paragraphs are re-flowed to
// the terminal's width; a long example is wrapped between shell words, continued with a
// shell's " \", its comment on a line of its own above it.

import type { Command, Help } from 'commander';

/** Terms wrapped into lines of at most `width` columns, `gap` apart (a term longer than a line stays whole). */
function flow(terms: readonly string[], width: number, indent: string, gap = '  '): string[] {
  const lines: string[] = [];
  let line = '';
  for (const term of terms) {
    const joined = line === '' ? `${indent}${term}` : `${line}${gap}${term}`;
    if (line !== '' && joined.length > width) {
      lines.push(line);
      line = `${indent}${term}`;
    } else {
      line = joined;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** Text in lines of at most `width` columns, split between words (a word longer than a line stays whole). */
export function wrapWords(text: string, width: number): string[] {
  return flow(text.split(' '), width, '', ' ');
}

/**
 * Two columns of a help topic: each term padded to the longest plus two, its text wrapped at
 * `width` and continued under itself, so a longer term moves every text along with it.
 */
export function termList(rows: readonly (readonly [term: string, text: string])[], width = 80): string {
  const termWidth = Math.max(0, ...rows.map(([term]) => term.length));
  const under = ' '.repeat(2 + termWidth + 2);
  return rows
    .map(([term, text]) => {
      const [first = '', ...more] = flow(text.split(' '), width, under, ' ');
      return [`  ${term.padEnd(termWidth)}  ${first.slice(under.length)}`, ...more].join('\n');
    })
    .join('\n');
}

/**
 * `head` and the items after it, `, ` apart, in lines of at most `width` columns continued two
 * columns in; an item is never split (`5 not found/404` stays on one line).
 */
export function itemLines(head: string, items: readonly string[], width = 80): string {
  const terms = items.map((item, at) => (at < items.length - 1 ? `${item},` : `${item}.`));
  const [first = '', ...more] = flow([head, ...terms], width, '  ', ' ');
  return [first.slice(2), ...more].join('\n');
}

/** Text written for Markdown (the guides' tables) as a terminal shows it: no backticks. */
export const plain = (text: string) => text.replaceAll('`', '');

export function formatHelp(cmd: Command, helper: Help): string {
  const width = helper.helpWidth ?? 80;
  const own = [
    ...helper.visibleArguments(cmd).map((a) => helper.argumentTerm(a)),
    ...helper.visibleOptions(cmd).map((o) => helper.optionTerm(o)),
    ...helper.visibleCommands(cmd).map((c) => helper.subcommandTerm(c)),
  ];
  const termWidth = Math.max(0, ...own.map((t) => helper.displayWidth(t)));
  const item = (term: string, description: string) => helper.formatItem(term, termWidth, description, helper);
  const section = (title: string, items: string[]) =>
    items.length === 0 ? [] : [helper.styleTitle(title), ...items, ''];

  const out = [`${helper.styleTitle('Usage:')} ${helper.styleUsage(helper.commandUsage(cmd))}`, ''];
  const description = helper.commandDescription(cmd);
  if (description) out.push(helper.boxWrap(helper.styleCommandDescription(description), width), '');
  const args = helper
    .visibleArguments(cmd)
    .map((a) =>
      item(
        helper.styleArgumentTerm(helper.argumentTerm(a)),
        helper.styleArgumentDescription(helper.argumentDescription(a)),
      ),
    );
  const options = helper
    .visibleOptions(cmd)
    .map((o) =>
      item(
        helper.styleOptionTerm(helper.optionTerm(o)),
        helper.styleOptionDescription(helper.optionDescription(o)),
      ),
    );
  const commands = helper
    .visibleCommands(cmd)
    .map((c) =>
      item(
        helper.styleSubcommandTerm(helper.subcommandTerm(c)),
        helper.styleSubcommandDescription(helper.subcommandDescription(c)),
      ),
    );
  out.push(...section('Arguments:', args));
  if (cmd.parent) out.push(...section('Options:', options), ...section('Commands:', commands));
  else out.push(...section('Commands:', commands), ...section('Options:', options));
  const inherited = helper.visibleGlobalOptions(cmd).map((o) => helper.optionTerm(o));
  if (inherited.length > 0) {
    out.push(
      helper.styleTitle('Inherited options (billing --help says what each does):'),
      ...flow(inherited, width, '  '),
      '',
    );
  }
  return out.join('\n');
}

/**
 * The shell words of an example, quotes kept with their word (`--name "Gold plan"` is two
 * words), and its trailing comment (`# safe to retry`) apart.
 */
function shellWords(example: string): { words: string[]; comment?: string } {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  for (let at = 0; at < example.length; at++) {
    const ch = example[at] as string;
    if (quote) {
      word += ch;
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") {
      word += ch;
      quote = ch;
    } else if (ch === ' ') {
      if (word !== '') words.push(word);
      word = '';
    } else if (ch === '#' && word === '') {
      return { words, comment: example.slice(at + 1).trim() };
    } else {
      word += ch;
    }
  }
  if (word !== '') words.push(word);
  return { words };
}

/**
 * One example, as it pastes: within `width` it is left as written. Longer, its comment goes on
 * lines of its own above it (`  # safe to retry`), and the command is wrapped between shell
 * words (never inside a quoted one), each line but the last continued with a shell's " \".
 */
export function wrapExample(example: string, width: number): string {
  const first = '  $ ';
  if (first.length + example.length <= width) return `${first}${example}`;
  const { words, comment } = shellWords(example);
  const above = comment ? flow(comment.split(' '), width, '  # ', ' ') : [];
  const next = '      ';
  const lines: string[] = [];
  let line = first;
  for (const word of words) {
    const fresh = line === first || line === next;
    const joined = fresh ? `${line}${word}` : `${line} ${word}`;
    // Room is kept for the " \" that continues the line.
    if (!fresh && joined.length > width - 2) {
      lines.push(`${line} \\`);
      line = `${next}${word}`;
    } else {
      line = joined;
    }
  }
  lines.push(line);
  return [...above, ...lines].join('\n');
}

/** A line of a paragraph: text from the first column (not blank, not indented, not an example). */
const isProse = (line: string) => line !== '' && !line.startsWith(' ');

/**
 * Help text as printed at `width` columns. A paragraph (lines of text from the first column,
 * up to a blank or an indented line) is re-flowed as one, however the source broke it; an
 * example ("  $ billing …") is laid out by wrapExample; any other indented line (a list, an
 * item of Options:) keeps its line and, when too long, wraps with its indent plus two.
 */
export function wrapHelpText(text: string, width: number): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] as string;
    if (isProse(line)) {
      const paragraph = [line];
      while (isProse(lines[at + 1] ?? '')) paragraph.push(lines[++at] as string);
      const words = paragraph
        .join(' ')
        .split(' ')
        .filter((w) => w !== '');
      out.push(...flow(words, width, '', ' '));
    } else if (line.startsWith('  $ ')) {
      // An example the source continued with " \\" is one shell line, laid out whole.
      let example = line.slice(4);
      while (example.endsWith(' \\') && at + 1 < lines.length)
        example = `${example.slice(0, -2)} ${(lines[++at] as string).trim()}`;
      out.push(wrapExample(example, width));
    } else if (line.length <= width) {
      out.push(line);
    } else {
      const lead = /^ */.exec(line)?.[0] ?? '';
      const words = line.slice(lead.length).split(' ');
      const [head = '', ...rest] = flow(words, width - lead.length, '', ' ');
      const more = flow(rest.join(' ').split(' '), width - lead.length - 2, '', ' ');
      out.push([`${lead}${head}`, ...more.map((l) => `${lead}  ${l}`)].join('\n'));
    }
  }
  return out.join('\n');
}
