// Who listens on a TCP port of this machine, as /proc tells (Linux): the socket's owner from
// /proc/net/tcp{,6} (readable by everyone), the process from /proc/PID/fd when this user may
// read it (its own processes; root: all). Said when something on a port fails to prove it is
// the emulator this user started, so that the person knows whom to ask. Elsewhere: nothing.

import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface PortListener {
  uid: number;
  user?: string;
  pid?: number;
  command?: string;
}

/** The listener on `port`, or undefined when /proc does not tell (another platform, nothing there). */
export function listenerOn(port: number): PortListener | undefined {
  const socket = listeningSocket(port);
  if (!socket) return undefined;
  const found: PortListener = { uid: socket.uid, user: userName(socket.uid) };
  const pid = processWithSocket(socket.inode);
  if (pid !== undefined) {
    found.pid = pid;
    found.command = commandOf(pid);
  }
  return found;
}

/** "uid 65534 (nobody), pid 812: node fake.js": one line, printable. */
export function describeListener(l: PortListener): string {
  const who = `uid ${l.uid}${l.user ? ` (${l.user})` : ''}`;
  if (l.pid === undefined) return who;
  return `${who}, pid ${l.pid}${l.command ? `: ${l.command}` : ''}`;
}

function listeningSocket(port: number): { uid: number; inode: string } | undefined {
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // sl local rem st queues timer retr uid timeout inode; st 0A is LISTEN.
      if (f.length < 10 || f[3] !== '0A') continue;
      const localPort = Number.parseInt(f[1]?.split(':')[1] ?? '', 16);
      if (localPort === port) return { uid: Number(f[7]), inode: f[9] ?? '' };
    }
  }
  return undefined;
}

function processWithSocket(inode: string): number | undefined {
  const target = `socket:[${inode}]`;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === target) return Number(pid);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

function commandOf(pid: number): string | undefined {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    // Another user's words: printable characters only, and not the whole of a long line.
    const line = argv.join(' ').replace(/[^\x20-\x7e]/g, '?');
    return line.length > 120 ? `${line.slice(0, 117)}...` : line || undefined;
  } catch {
    return undefined;
  }
}

function userName(uid: number): string | undefined {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , id] = line.split(':');
      if (id !== undefined && Number(id) === uid && name) return name.replace(/[^\w.-]/g, '?');
    }
  } catch {
    // no passwd file
  }
  return undefined;
}
