// Who a file or folder may be believed from (as ssh decides for its keys): only from the user
// running, when nobody else can write it (and, for a secret, read it). A file at a path is not
// the user's own because of where it lies: another local user may have put it there first.
// One rule for the config, the state folder and its journals, the code cache, secret files
// and the emulator's key folder; each caller says what to do with a refusal (exit 12, or a
// warning and the file ignored). Where the platform has no owners (Windows: no getuid), the
// owner check is skipped and the mode check too (docs/platforms.md).

import { type Stats, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';

export interface TrustRule {
  /** A regular file or a directory; anything else (a fifo, a device) is refused. */
  kind: 'file' | 'directory';
  /** Secrets: nobody else may read it either (mode 0600, 0700). Else: nobody else may write it. */
  secret?: boolean;
}

/** Why `path` is not trusted, with the command that would fix it; undefined when it is. */
export interface Distrust {
  why: string;
  fix: string;
}

/** The user running, as the filesystem knows it; undefined where there are no owners (Windows). */
export function runningUid(): number | undefined {
  return process.getuid?.();
}

/** Whether `info` (of `path`) may be believed by `uid` (runningUid()), by the rule. */
export function distrustOf(
  path: string,
  info: Pick<Stats, 'uid' | 'mode' | 'isFile' | 'isDirectory' | 'isSymbolicLink'>,
  rule: TrustRule,
  uid: number | undefined,
): Distrust | undefined {
  const isKind = rule.kind === 'file' ? info.isFile() : info.isDirectory();
  if (!isKind) {
    const what = rule.kind === 'file' ? 'a regular file' : 'a directory';
    return { why: `is not ${what}${info.isSymbolicLink() ? ' (a symlink)' : ''}`, fix: `remove ${path}` };
  }
  if (uid === undefined) return undefined;
  if (info.uid !== uid) {
    return {
      why: `belongs to another user (uid ${info.uid}, you are ${uid})`,
      fix: uid === 0 ? `chown root ${quote(path)}` : `remove ${quote(path)} (its owner or root can)`,
    };
  }
  const others = rule.secret ? 0o077 : 0o022;
  if ((info.mode & others) !== 0) {
    const mode = (info.mode & 0o777).toString(8).padStart(4, '0');
    const wanted = rule.kind === 'directory' ? (rule.secret ? '700' : 'go-w') : rule.secret ? '600' : 'go-w';
    return {
      why: `may be ${rule.secret ? 'read or written' : 'written'} by others (mode ${mode})`,
      fix: `chmod ${wanted} ${quote(path)}`,
    };
  }
  return undefined;
}

/** The distrust of what lies at `path` (followed, as it will be opened); undefined when trusted or absent. */
export async function distrustAt(path: string, rule: TrustRule): Promise<Distrust | undefined> {
  const info = await stat(path).catch(() => undefined);
  return info && distrustOf(path, info, rule, runningUid());
}

/** distrustAt, for the few callers that must stay synchronous (start-up). */
export function distrustAtSync(path: string, rule: TrustRule): Distrust | undefined {
  let info: Stats;
  try {
    info = statSync(path);
  } catch {
    return undefined;
  }
  return distrustOf(path, info, rule, runningUid());
}

function quote(path: string): string {
  return /^[\w./@%+=:,-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}
