// The spawn helper's program (spawn-helper.ts starts it with `python3 -I -S -X utf8 -c`).
// A long-lived Python process is cheap to fork where a Node process is not:
// Node's spawn forks its whole address space (about 3 ms a job for the
// drain, measured), posix_spawn from a small process costs a fraction of it.
//
// Requests, one JSON object a line on stdin:
//   {"id": N, "argv": [...], "cwd": DIR, "env": {...}, "stdin_path": PATH}
//   ("stdin_text": TEXT instead of stdin_path: written to the hook through a pipe)
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
// Each start is also appended to fd 3 ("ID PID" a line) before it is reported:
// a file, never a pipe that a busy reader leaves full, so the runner can
// find every hook this helper started even if the helper dies before S.
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
    def __init__(self, rid, pid, out, err, stdin, text):
        self.rid, self.pid, self.status, self.deadline = rid, pid, None, None
        self.open = {out: b'O', err: b'R'}
        self.stdin, self.text = stdin, memoryview(text)
        for fd in self.open:
            sel.register(fd, selectors.EVENT_READ, (self, 'read'))
        if stdin is not None:
            os.set_blocking(stdin, False)
            sel.register(stdin, selectors.EVENT_WRITE, (self, 'write'))

    def read(self, fd):
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b''
        if data:
            frame(self.open[fd], self.rid, data)
        else:
            self.close(fd)

    def write(self, fd):
        try:
            self.text = self.text[os.write(fd, self.text):]
        except BlockingIOError:
            return
        except OSError:
            self.text = b''
        if not self.text:
            self.close_stdin()

    def close_stdin(self):
        if self.stdin is not None:
            sel.unregister(self.stdin)
            os.close(self.stdin)
            self.stdin = None

    def close(self, fd):
        sel.unregister(fd)
        os.close(fd)
        del self.open[fd]
        self.finish_if_read()

    def exited(self, status):
        self.status = status
        frame(b'W', self.rid, how(status))
        self.close_stdin()
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
        if '/' not in name and not os.path.exists(file):
            continue
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
        if 'stdin_path' in req:
            stdin, writer = os.open(req['stdin_path'], os.O_RDONLY | os.O_NOFOLLOW), None
            fds.append(stdin)
        else:
            stdin, writer = os.pipe()
            fds += [stdin, writer]
    except OSError as e:
        return fail('stdin ' + errno.errorcode.get(e.errno, 'EIO'))
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
    os.write(3, b'%d %d\n' % (rid, pid))
    for fd in (stdin, w_out, w_err):
        os.close(fd)
    frame(b'S', rid, str(pid).encode())
    runs[pid] = Run(rid, pid, r_out, r_err, writer, req.get('stdin_text', '').encode() if writer is not None else b'')
    if stopping:
        # SIGTERM came while this one was being started, before it was in runs.
        kill_group(pid)
    reap()

def reap():
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
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
signal.signal(signal.SIGCHLD, lambda *_: None)
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
        elif key.fd in run.open or key.fd == run.stdin:
            getattr(run, act)(key.fd)
    reap()
    for run in list(lingering):
        run.finish_if_read()
`;
