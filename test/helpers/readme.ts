// The commands of README.md and of the guides (docs/guides/*.md), as test/e2e/readme.test.ts
// runs them. The rules (also stated in docs/guides/development.md, "The documents are tests"):
// - every line of a ```sh block is read; a trailing `\` joins the next line; `;` splits a
//   line into commands; a `#` outside quotes starts a comment;
// - a command starting with `billing` is run; one starting with `printf` (the README writing an
//   input file) is run by /bin/sh in the scratch directory; every other line is not run;
// - `| …` after a billing command is dropped (the test checks billing, not jq); `> FILE` and
//   `< FILE` are files of the scratch directory;
// - the expected exit code is 0, or N when the comment says `exit N`;
// - `webhooks listen` (but --print-secret), `checkout open` and `emulator start` without --detach run until
//   stopped: they are stopped with Ctrl-C (SIGINT) once they say they are ready, and must end
//   with the expected code;
// - the first example of each kind, and what needs a process, run as the built CLI; the rest
//   in-process from the document's folder (processRuns).

export interface ReadmeCommand {
  /** The README line it comes from (1-based), for messages. */
  line: number;
  /** As written, without the comment. */
  text: string;
  /** The comment of its line, without the `#`: what the document says it does. */
  comment: string;
  kind: 'billing' | 'shell';
  /** The words after `billing`, quotes removed, placeholders still in. */
  args: string[];
  stdoutFile?: string;
  stdinFile?: string;
  expectedExit: number;
  longRunning: boolean;
}

export function readmeCommands(markdown: string): ReadmeCommand[] {
  const commands: ReadmeCommand[] = [];
  const lines = markdown.split('\n');
  let inBlock = false;
  let pending = '';
  let pendingLine = 0;
  lines.forEach((raw, at) => {
    if (/^```/.test(raw)) {
      inBlock = !inBlock && /^```sh\s*$/.test(raw);
      return;
    }
    if (!inBlock) return;
    if (pending === '') pendingLine = at + 1;
    const joined = pending + raw;
    if (/\\\s*$/.test(raw)) {
      pending = `${joined.replace(/\\\s*$/, '')} `;
      return;
    }
    pending = '';
    commands.push(...parseLine(joined.trim(), pendingLine));
  });
  return commands;
}

function parseLine(line: string, lineNo: number): ReadmeCommand[] {
  const { code, comment } = splitComment(line);
  const expected = /\bexit (\d+)\b/.exec(comment);
  return splitOutsideQuotes(code, ';')
    .map((part) => part.trim())
    .filter((part) => /^(billing|printf)\s/.test(part))
    .map((part) => {
      const kind = part.startsWith('billing') ? 'billing' : 'shell';
      const [beforePipe = ''] = kind === 'billing' ? splitOutsideQuotes(part, '|') : [part];
      let words = kind === 'billing' ? shellWords(beforePipe).slice(1) : [];
      let stdoutFile: string | undefined;
      let stdinFile: string | undefined;
      const out = words.indexOf('>');
      if (out >= 0) {
        stdoutFile = words[out + 1];
        words = words.slice(0, out).concat(words.slice(out + 2));
      }
      const inp = words.indexOf('<');
      if (inp >= 0) {
        stdinFile = words[inp + 1];
        words = words.slice(0, inp).concat(words.slice(inp + 2));
      }
      return {
        line: lineNo,
        text: part,
        comment: comment.trim(),
        kind,
        args: words,
        stdoutFile,
        stdinFile,
        expectedExit: expected ? Number(expected[1]) : 0,
        longRunning: kind === 'billing' && runsUntilStopped(words),
      } satisfies ReadmeCommand;
    });
}

export function runsUntilStopped(args: readonly string[]): boolean {
  const path = args.filter((a) => !a.startsWith('-')).join(' ');
  // `listen --print-secret` prints the secret and ends.
  if (/\bwebhooks listen\b/.test(path)) return !args.includes('--print-secret');
  if (/\bcheckout open\b/.test(path)) return true;
  return /\bemulator start\b/.test(path) && !args.includes('--detach');
}

function splitComment(line: string): { code: string; comment: string } {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) {
      return { code: line.slice(0, i), comment: line.slice(i + 1) };
    }
  }
  return { code: line, comment: '' };
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let quote = '';
  let current = '';
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === separator) {
      parts.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  parts.push(current);
  return parts;
}

/** Words as a POSIX shell splits them (quotes removed; no expansion). */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let current: string | undefined;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    // A README placeholder (<id>, <payment id>) is a word, not a redirection.
    const placeholder = quote ? null : /^<[a-z][a-z ]*>/i.exec(text.slice(i));
    if (placeholder) {
      current = (current ?? '') + placeholder[0];
      i += placeholder[0].length - 1;
    } else if (quote) {
      if (c === quote) quote = '';
      else current = (current ?? '') + c;
    } else if (c === '"' || c === "'") {
      quote = c;
      current ??= '';
    } else if (/\s/.test(c)) {
      if (current !== undefined) words.push(current);
      current = undefined;
    } else if ((c === '>' || c === '<') && current === undefined) {
      words.push(c);
    } else {
      current = (current ?? '') + c;
    }
  }
  if (current !== undefined) words.push(current);
  return words;
}

/** The placeholders of a command, e.g. ["id", "payment id"] for `<id>` and `<payment id>`. */
export function placeholders(args: readonly string[]): string[] {
  return [...new Set(args.flatMap((a) => [...a.matchAll(/<([^<>]+)>/g)].map((m) => m[1] ?? '')))];
}

/** A test file a document shows (a ```js or ```ts block whose first line is `// NAME.test.EXT…`). */
export interface ReadmeTestFile {
  line: number;
  name: string;
  code: string;
}

export function readmeTestFiles(markdown: string): ReadmeTestFile[] {
  const found: ReadmeTestFile[] = [];
  for (const match of markdown.matchAll(
    /^```(?:js|ts)\n(\/\/ ([\w.-]+\.test\.(?:mjs|ts))\b[^\n]*\n[\s\S]*?)^```$/gm,
  )) {
    const line = markdown.slice(0, match.index).split('\n').length + 1;
    found.push({ line, name: match[2] as string, code: match[1] as string });
  }
  return found;
}

/** A command's words before its first flag or value, after a leading `--env NAME`, at most three; `--version` and `--help` count as words. */
function commandWords(args: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < args.length && words.length < 3; i++) {
    const word = args[i] as string;
    if (word === '--env') {
      i++;
      continue;
    }
    if (['--version', '-v', '--help', '-h'].includes(word)) return [...words, word];
    if (!/^[a-z][a-z-]*$/.test(word)) break;
    words.push(word);
  }
  return words;
}

/** What kind of example a command is: its command (`orders get`, `emulator clock advance`) and the exit code the document announces. */
export function exampleKind(command: Pick<ReadmeCommand, 'args' | 'expectedExit'>): string {
  return `${commandWords(command.args).join(' ')} → exit ${command.expectedExit}`;
}

/**
 * Whether only the built CLI as a process can run this command as a reader does: one that runs
 * until stopped (a signal), `emulator start`/`stop` (a detached emulator is `process.argv[1]`
 * started again), `mcp` (a server on the process's stdin), help and --version (bin/billing
 * answers them from dist/ without main()).
 */
export function needsProcess(command: Pick<ReadmeCommand, 'args' | 'longRunning'>): boolean {
  const [first, second] = commandWords(command.args);
  return (
    command.longRunning ||
    (first === 'emulator' && (second === 'start' || second === 'stop')) ||
    first === 'mcp' ||
    first === 'help' ||
    command.args.some((a) => ['--help', '-h', '--version', '-v'].includes(a))
  );
}

/**
 * The commands of the documents (in the order given) that run as the built CLI: those that need
 * a process, and the first of each kind of example (exampleKind), so that every kind is checked
 * once as a reader's process ends it (its exit code); the others may run in-process.
 */
export function processRuns(documents: readonly (readonly ReadmeCommand[])[]): Set<ReadmeCommand> {
  const seen = new Set<string>();
  const chosen = new Set<ReadmeCommand>();
  for (const commands of documents) {
    for (const command of commands) {
      if (command.kind !== 'billing') continue;
      const kind = exampleKind(command);
      if (needsProcess(command) || !seen.has(kind)) chosen.add(command);
      seen.add(kind);
    }
  }
  return chosen;
}
