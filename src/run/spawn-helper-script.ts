// The spawn helper's program (spawn-helper.ts starts it with `python3 -I -S -X utf8 -c`).
// A long-lived Python process is cheap to fork where a Node process is not:
// Node's spawn forks its whole address space (about 3 ms a job for the
// drain, measured), posix_spawn from a small process costs a fraction of it.
//
// Requests, one JSON object a line on stdin:
//   {"id": N, "argv": [...], "cwd": DIR, "env": {...}, "stdin_path": PATH}
// (the hook's stdin is its payload file, opened read-only, never through a symlink)
// argv[0] is looked up as execvp looks it up (Node's spawn uses execvp): a
// path as it is, from the cwd; a bare name in each entry of the hook's own
// PATH in turn, past those where it is missing or cannot be executed.
// Replies, frames on stdout: kind (1 byte), id (u32 BE), length (u32 BE), data:
//   H  ready (id 0)            S  started, data the pid (it leads its own session)
//   E  not started: the errno name (ENOENT), "stdin CODE" when the payload file would not open
//   O  a stdout chunk          R  a stderr chunk
//   W  the hook exited: "exit N" or "signal N", as soon as it is reaped
//   X  the run is over: its pipes were read to the end, or 100 ms passed since
//      it exited (a forked grandchild may hold them open), as Node's runner does.
// The start log, fd 3, is a file, never a pipe that a busy reader leaves
// full: "P ID" before each posix_spawn, "S ID PID" the moment it returns,
// "X PID exit N" or "X PID signal N" as soon as SIGCHLD says a hook exited (the handler reaps and
// writes it, even while the helper is blocked writing a frame). If the helper
// dies, the runner reads there which hooks had exited, which run on, and which
// were being started (the runner finds those by their CHRYS_HOOK_RESULT).
// The helper ends when stdin closes and nothing it started is left. SIGTERM
// (the runner's stopEverything) kills the group of every hook it started,
// reports each as it is reaped, and refuses new requests (E ECANCELED).
export const SPAWN_HELPER_SCRIPT = String.raw`
import errno, json, os, selectors, signal, struct, sys, time

if not (hasattr(os, 'posix_spawn') and hasattr(os, 'POSIX_SPAWN_DUP2') and hasattr(signal, 'valid_signals')):
    sys.exit(3)
os.set_inheritable(3, False)
GRACE = 0.1
DEFAULTS = [s for s in signal.valid_signals() if s not in (signal.SIGKILL, signal.SIGSTOP)]
# execvp goes on to the next PATH entry past these, and reports EACCES if it met one.
SKIPPED = {errno.EACCES, errno.ENOENT, errno.ENOTDIR, errno.ESTALE, errno.ENODEV, errno.ETIMEDOUT}
sel = selectors.DefaultSelector()
runs = {}
lingering = []
peer_gone = False
def frame(kind, rid, data=b''):
    global peer_gone
    if peer_gone:
        return
    buf = struct.pack('>cII', kind, rid, len(data)) + data
    try:
        while buf:
            buf = buf[os.write(1, buf):]
    except OSError:
        peer_gone = True

class Run:
    def __init__(self, rid, pid, out, err):
        self.rid, self.pid, self.status, self.deadline = rid, pid, None, None
        self.open = {out: b'O', err: b'R'}
        for fd in self.open:
            sel.register(fd, selectors.EVENT_READ, (self, 'read'))

    def read(self, fd):
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b''
        if data:
            frame(self.open[fd], self.rid, data)
        else:
            self.close(fd)

    def close(self, fd):
        sel.unregister(fd)
        os.close(fd)
        del self.open[fd]
        self.finish_if_read()

    def exited(self, status):
        self.status = status
        frame(b'W', self.rid, how(status))
        self.deadline = time.monotonic() + GRACE
        lingering.append(self)
        self.finish_if_read()

    def finish_if_read(self):
        if self.status is None or (self.open and time.monotonic() < self.deadline):
            return
        for fd in list(self.open):
            sel.unregister(fd)
            os.close(fd)
        self.open = {}
        if self in lingering:
            lingering.remove(self)
        del runs[self.pid]
        frame(b'X', self.rid)

def log(line):
    try:
        os.write(3, line)
        return True
    except OSError:
        return False

def how(status):
    if os.WIFSIGNALED(status):
        return b'signal %d' % os.WTERMSIG(status)
    return b'exit %d' % (os.WEXITSTATUS(status) if os.WIFEXITED(status) else 0)

def spawn(argv, env, stdin, out, err):
    actions = [(os.POSIX_SPAWN_DUP2, stdin, 0), (os.POSIX_SPAWN_DUP2, out, 1), (os.POSIX_SPAWN_DUP2, err, 2)]
    opts = dict(file_actions=actions, setsid=True, setsigdef=DEFAULTS, setsigmask=[])
    name = argv[0]
    if '/' in name:
        candidates = [name]
    else:
        candidates = [os.path.join(d or '.', name) for d in env.get('PATH', '/bin:/usr/bin').split(':')]
    denied = None
    for file in candidates:
        if '/' not in name:
            try:
                os.stat(file)
            except (FileNotFoundError, NotADirectoryError):
                continue  # what execve would say: on to the next entry, without a spawn to learn it
            except OSError:
                pass  # ELOOP, ENAMETOOLONG, EACCES on the way: let the spawn give execve's own answer
        try:
            return os.posix_spawn(file, argv, env, **opts)
        except OSError as e:
            if e.errno == errno.ENOEXEC:
                # No #! line: run it with /bin/sh, as execvp does.
                return os.posix_spawn('/bin/sh', ['/bin/sh', file] + argv[1:], env, **opts)
            if e.errno not in SKIPPED or '/' in name:
                raise
            if e.errno == errno.EACCES:
                denied = e
    raise denied or OSError(errno.ENOENT, 'not found')

stopping = False

def stop(*_):
    global stopping
    stopping = True
    for pid in runs:
        kill_group(pid)

def kill_group(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass

def start(req):
    rid = req['id']
    if stopping:
        frame(b'E', rid, b'ECANCELED')
        return
    fds = []
    def fail(code):
        for fd in fds:
            os.close(fd)
        frame(b'E', rid, code.encode())
    try:
        stdin = os.open(req['stdin_path'], os.O_RDONLY | os.O_NOFOLLOW)
        fds.append(stdin)
    except OSError as e:
        return fail('stdin ' + errno.errorcode.get(e.errno, 'EIO'))
    if not log(b'P %d\n' % rid):
        return fail('EIO')
    try:
        r_out, w_out = os.pipe()
        r_err, w_err = os.pipe()
        fds += [r_out, w_out, r_err, w_err]
        os.chdir(req['cwd'])
        try:
            pid = spawn(req['argv'], req['env'], stdin, w_out, w_err)
        finally:
            os.chdir('/')
    except OSError as e:
        return fail(errno.errorcode.get(e.errno, 'EIO'))
    except (ValueError, TypeError, KeyError):
        return fail('EINVAL')
    if not log(b'S %d %d\n' % (rid, pid)):
        # A start the runner could not find again if we died: not kept.
        kill_group(pid)
        return fail('EIO')
    for fd in (stdin, w_out, w_err):
        os.close(fd)
    frame(b'S', rid, str(pid).encode())
    runs[pid] = Run(rid, pid, r_out, r_err)
    if stopping:
        # SIGTERM came while this one was being started, before it was in runs.
        kill_group(pid)
    reap()

# Reaped by the SIGCHLD handler, settled by the main loop: a run registers before the loop looks again.
reaped = []

def on_sigchld(*_):
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        log(b'X %d %s\n' % (pid, how(status)))
        reaped.append((pid, status))

def reap():
    on_sigchld()
    while reaped:
        pid, status = reaped.pop(0)
        if pid in runs:
            runs[pid].exited(status)

pending = bytearray()
requests_open = True
def requests(fd):
    global requests_open
    data = os.read(fd, 65536)
    if not data:
        requests_open = False
        sel.unregister(fd)
        return
    pending.extend(data)
    while True:
        end = pending.find(b'\n')
        if end < 0:
            return
        line = bytes(pending[:end])
        del pending[:end + 1]
        start(json.loads(line))

wake_r, wake_w = os.pipe()
os.set_blocking(wake_w, False)
signal.set_wakeup_fd(wake_w)
signal.signal(signal.SIGCHLD, on_sigchld)
signal.signal(signal.SIGTERM, stop)
sel.register(0, selectors.EVENT_READ, (None, requests))
sel.register(wake_r, selectors.EVENT_READ, (None, lambda fd: os.read(fd, 4096)))
frame(b'H', 0)
while requests_open or runs:
    timeout = max(0, min(r.deadline for r in lingering) - time.monotonic()) if lingering else None
    for key, _ in sel.select(timeout):
        run, act = key.data
        if run is None:
            act(key.fd)
        elif key.fd in run.open:
            getattr(run, act)(key.fd)
    reap()
    for run in list(lingering):
        run.finish_if_read()
`;
