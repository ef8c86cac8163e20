#!/usr/bin/env python3
# Runs a command on a new pseudo-terminal, as a person at a terminal would:
# the bytes on our stdin are typed into the terminal (0x03 is Ctrl-C), and what the terminal
# shows comes out on our stdout. Exits with the command's exit code, 128+N after signal N.
# Usage: on-terminal.py COLS ROWS COMMAND [ARGS...]
import os
import pty
import select
import signal
import struct
import sys
import termios
import fcntl

cols, rows = int(sys.argv[1]), int(sys.argv[2])
argv = sys.argv[3:]

# Closed on exec (Python's pipes are not inherited): its end of file says the command runs.
exec_read, exec_write = os.pipe()
pid, master = pty.fork()
if pid == 0:
    # The child: the terminal is already its stdin, stdout, stderr and controlling terminal.
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    os.execvp(argv[0], argv)

# Keys are typed only once the command runs on the terminal: a Ctrl-C typed before the child
# owns it would be shown ("^C") but signal no one.
os.close(exec_write)
while os.read(exec_read, 1):
    pass
os.close(exec_read)


def stop(_signum, _frame):
    # Our own end (a test's timeout) ends the command too, never leaving it behind.
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    sys.exit(137)


signal.signal(signal.SIGTERM, stop)

stdin_open = True
while True:
    watched = [master] + ([0] if stdin_open else [])
    ready, _, _ = select.select(watched, [], [])
    if master in ready:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the command closed the terminal (it exited)
            data = b""
        if not data:
            break
        os.write(1, data)
    if stdin_open and 0 in ready:
        data = os.read(0, 65536)
        if data:
            os.write(master, data)
        else:
            stdin_open = False

_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
sys.exit(128 - code if code < 0 else code)
