#!/usr/bin/env python3
"""Takes the step a Codex user takes once after `chrys-hooks install --agent codex`:
starts the interactive `codex` in a pseudo-terminal and, at its "Hooks need review"
screen, chooses "Trust all and continue"; then quits. Codex itself records the
trust (in $CODEX_HOME/config.toml). Exit 0 once that record is there.

usage: trust-hooks.py CONFIG_TOML CODEX_ARGV...
"""
import fcntl, os, pty, re, select, signal, struct, sys, termios, time

config, argv = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', 40, 120, 0, 0))

# The terminal queries the TUI makes at start, answered as a plain xterm would.
REPLIES = [(b'\x1b[6n', b'\x1b[1;1R'), (b'\x1b]10;?', b'\x1b]10;rgb:ffff/ffff/ffff\x1b\\'),
           (b'\x1b]11;?', b'\x1b]11;rgb:0000/0000/0000\x1b\\'), (b'\x1b[c', b'\x1b[?62;22c'), (b'\x1b[?u', b'\x1b[?0u')]
screen = b''


def plain(data):
    text = re.sub(rb'\x1b\[[0-9;?<>=]*[a-zA-Z~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)', b' ', data)
    return re.sub(r'\s+', ' ', text.decode('utf-8', 'replace'))


def read(seconds):
    """Reads what the TUI draws for up to `seconds`; False once it has exited."""
    global screen
    r, _, _ = select.select([fd], [], [], seconds)
    if not r:
        return True
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        return False
    if not chunk:
        return False
    screen += chunk
    for query, answer in REPLIES:
        if query in chunk:
            os.write(fd, answer)
    return True


def until(done, seconds, what):
    end = time.time() + seconds
    while time.time() < end:
        if done():
            return
        if not read(0.2):
            break
    sys.stderr.write(f'codex never showed {what}; the screen ended with:\n{plain(screen)[-1500:]}\n')
    sys.exit(1)


def trusted():
    try:
        return '[hooks.state' in open(config).read()
    except OSError:
        return False


until(lambda: 'Trust all and continue' in plain(screen), 60, 'the "Hooks need review" screen')
review = len(screen)
OPTION = re.compile(r'› (\d)\. (?:Review hooks|Trust all and continue|Continue without trusting)')


def selected():
    found = OPTION.findall(plain(screen[max(0, review - 2000):]))
    return int(found[-1]) if found else 1


def raw():
    """Whether the TUI has the terminal in raw mode, i.e. reads keys (before that they are echoed and lost)."""
    return not termios.tcgetattr(fd)[3] & (termios.ICANON | termios.ECHO)


def settled():
    """Raw mode and nothing drawn for half a second: the TUI waits for a key.
    While it starts it leaves raw mode and discards type-ahead (and fails,
    "timed out discarding buffered terminal input", when keys keep coming)."""
    if not raw():
        read(0.1)
        return False
    before = len(screen)
    end = time.time() + 0.5
    while time.time() < end:
        if not read(0.1):
            return False
    return len(screen) == before and raw()


# A key can still be dropped while the TUI starts: press only once it has
# settled, and again only when the selection has not moved.
for _ in range(10):
    until(settled, 30, 'the review screen waiting for a key')
    if selected() == 2:
        break
    os.write(fd, b'\x1b[B' if selected() < 2 else b'\x1b[A')
    before = selected()
    end = time.time() + 3
    while time.time() < end and selected() == before:
        read(0.1)
until(lambda: selected() == 2, 5, '"Trust all and continue" selected')
os.write(fd, b'\r')
until(trusted, 30, f'a hook trust record in {config}')
for _ in range(10):
    os.write(fd, b'\x03')
    end = time.time() + 1
    while time.time() < end:
        if not read(0.2):
            os.waitpid(pid, 0)
            sys.exit(0)
os.kill(pid, signal.SIGKILL)
os.waitpid(pid, 0)
