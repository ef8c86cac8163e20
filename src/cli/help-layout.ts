// The layout of every --help (gh's): a command's own arguments, options and subcommands first
// (the root: its commands before its options), then the options every command inherits in a
// short block of their names; billing --help says what they do. Examples are wrapped at the
// terminal's width between words, a long example continued with a shell's " \".

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

/** One example a line, wrapped between words at `width`; the rest of a long one continues the shell line. */
export function wrapExample(example: string, width: number): string {
  const first = '  $ ';
  const next = '      ';
  const words = example.split(' ');
  const lines: string[] = [];
  let line = first;
  for (const word of words) {
    const joined = line === first || line === next ? `${line}${word}` : `${line} ${word}`;
    // Room is kept for the " \" that continues the line.
    if (line !== first && line !== next && joined.length > width - 2) {
      lines.push(`${line} \\`);
      line = `${next}${word}`;
    } else {
      line = joined;
    }
  }
  lines.push(line);
  return lines.join('\n');
}

/**
 * Help text as printed, each line longer than `width` wrapped between words: an example
 * ("  $ billing …") continues the shell line with " \", prose keeps its indent plus two.
 */
export function wrapHelpText(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => {
      if (line.length <= width) return line;
      if (line.startsWith('  $ ')) return wrapExample(line.slice(4), width);
      const lead = /^ */.exec(line)?.[0] ?? '';
      const words = line.slice(lead.length).split(' ');
      const [head = '', ...rest] = flow(words, width - lead.length, '', ' ');
      const more = flow(rest.join(' ').split(' '), width - lead.length - 2, '', ' ');
      return [`${lead}${head}`, ...more.map((l) => `${lead}  ${l}`)].join('\n');
    })
    .join('\n');
}
