// The spawning helper's program (run with `python3 -I -S -c`): it reads spawn
// requests on stdin, one JSON line each, starts each job with posix_spawn as
// the leader of a new session (so of its own process group), feeds its stdin,
// and relays its pid, stdout, stderr and exit back as binary frames:
// kind (1 byte), request id (u32 BE), length (u32 BE), bytes.
//   P pid (ascii)   E errno name, NUL, message   O stdout   R stderr   X "code signal" ("-" for none)
// Like Node's own spawn: the executable is looked up on the job's PATH, the
// job's signals are reset to their defaults, and once the job exited its
// pipes get 100 ms to drain (a forked grandchild may hold them open).
// It exits when its stdin closes; the jobs it started run on, in their own groups.

export const HELPER_SCRIPT = String.raw`
import errno, json, os, selectors, signal, struct, sys, time

OUT = sys.stdout.fileno()
sel = selectors.DefaultSelector()
jobs = {}
pids = {}
SIGDEF = [s for s in signal.valid_signals() if s not in (signal.SIGKILL, signal.SIGSTOP)]

def frame(kind, rid, data=b''):
    buf = struct.pack('>cII', kind, rid, len(data)) + data
    while buf:
        buf = buf[os.write(OUT, buf):]

def find(file, env):
    if '/' in file:
        return file
    denied = False
    for d in env.get('PATH', os.defpath).split(':'):
        p = os.path.join(d or '.', file)
        if os.path.isfile(p):
            if os.access(p, os.X_OK):
                return p
            denied = True
    raise OSError(errno.EACCES if denied else errno.ENOENT, file)

def start(req):
    rid = req['id']
    argv = [os.fsencode(a) for a in req['argv']]
    env = {os.fsencode(k): os.fsencode(v) for k, v in req['env'].items()}
    fds = []
    try:
        os.chdir(req['cwd'])
        path = find(req['argv'][0], req['env'])
        i_r, i_w = os.pipe(); fds += [i_r, i_w]
        o_r, o_w = os.pipe(); fds += [o_r, o_w]
        e_r, e_w = os.pipe(); fds += [e_r, e_w]
        pid = os.posix_spawn(path, argv, env, setsid=True, setsigdef=SIGDEF, setsigmask=[],
            file_actions=[(os.POSIX_SPAWN_DUP2, i_r, 0), (os.POSIX_SPAWN_DUP2, o_w, 1), (os.POSIX_SPAWN_DUP2, e_w, 2)])
    except OSError as e:
        for fd in fds:
            os.close(fd)
        code = errno.errorcode.get(e.errno, 'EIO') if e.errno else 'EIO'
        frame(b'E', rid, code.encode() + b'\0' + str(e.strerror or e).encode())
        return
    for fd in (i_r, o_w, e_w):
        os.close(fd)
    frame(b'P', rid, str(pid).encode())
    job = {'id': rid, 'open': 2, 'exit': None, 'until': None, 'in': req['stdin'].encode(), 'fds': {}}
    jobs[rid] = job
    pids[pid] = job
    for fd, kind in ((o_r, b'O'), (e_r, b'R')):
        os.set_blocking(fd, False)
        job['fds'][fd] = kind
        sel.register(fd, selectors.EVENT_READ, (job, kind))
    os.set_blocking(i_w, False)
    job['stdin'] = i_w
    feed(job)

def feed(job):
    fd = job['stdin']
    try:
        while job['in']:
            job['in'] = job['in'][os.write(fd, job['in'][:65536]):]
    except BlockingIOError:
        if fd not in sel.get_map():
            sel.register(fd, selectors.EVENT_WRITE, (job, b'I'))
        return
    except OSError:
        pass  # the job need not read its stdin (EPIPE)
    if fd in sel.get_map():
        sel.unregister(fd)
    os.close(fd)
    job['stdin'] = None

def close_out(job, fd):
    sel.unregister(fd)
    os.close(fd)
    del job['fds'][fd]

def finish(job):
    for fd in list(job['fds']):
        close_out(job, fd)
    if job['stdin'] is not None:
        job['in'] = b''
        feed(job)
    code, sig = job['exit']
    frame(b'X', job['id'], ('%s %s' % (code, sig)).encode())
    del jobs[job['id']]

def reap():
    while pids:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        job = pids.pop(pid, None)
        if job is None:
            continue
        job['exit'] = (os.WEXITSTATUS(status), '-') if os.WIFEXITED(status) else ('-', os.WTERMSIG(status))
        job['until'] = time.monotonic() + 0.1
        if not job['fds']:
            finish(job)

wake_r, wake_w = os.pipe()
os.set_blocking(wake_r, False)
os.set_blocking(wake_w, False)
signal.set_wakeup_fd(wake_w)
signal.signal(signal.SIGCHLD, lambda *_: None)
signal.signal(signal.SIGPIPE, signal.SIG_IGN)
sel.register(wake_r, selectors.EVENT_READ, None)
IN = sys.stdin.fileno()
os.set_blocking(IN, False)
sel.register(IN, selectors.EVENT_READ, 'in')
pending = b''
reading = True
while reading or jobs:
    waits = [j['until'] for j in jobs.values() if j['until'] is not None]
    timeout = max(0, min(waits) - time.monotonic()) if waits else None
    for key, _ in sel.select(timeout):
        what = key.data
        if what is None:
            try:
                os.read(wake_r, 512)
            except BlockingIOError:
                pass
        elif what == 'in':
            try:
                chunk = os.read(IN, 1 << 16)
            except BlockingIOError:
                continue
            if not chunk:
                sel.unregister(IN)
                reading = False
                continue
            pending += chunk
            while b'\n' in pending:
                line, pending = pending.split(b'\n', 1)
                start(json.loads(line))
        else:
            job, kind = what
            if kind == b'I':
                feed(job)
                continue
            try:
                data = os.read(key.fd, 1 << 16)
            except BlockingIOError:
                continue
            if data:
                frame(kind, job['id'], data)
            else:
                close_out(job, key.fd)
                if job['exit'] is not None and not job['fds']:
                    finish(job)
    reap()
    now = time.monotonic()
    for job in [j for j in jobs.values() if j['until'] is not None and j['until'] <= now]:
        finish(job)
`;
