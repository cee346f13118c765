// The spawning helper's program (run with `python3 -I -S -c`): it reads
// requests on stdin, one JSON line each, and relays each job's pid, stdout,
// stderr and exit back as binary frames:
// kind (1 byte), request id (u32 BE), length (u32 BE), bytes.
//   P pid (ascii)   E errno name, NUL, message   O stdout   R stderr   X "code signal" ("-" for none)
//
// A job never runs before its pid is known to the drain. The helper forks a
// child that makes itself a new session's leader (so of its own process
// group), asks the kernel to SIGKILL it if the helper dies (PR_SET_PDEATHSIG),
// and stops itself (SIGSTOP) before it execs the job. Only then is its pid
// sent (P); the drain notes it and answers {"go": id}, and only then is the
// child continued. So a helper that dies at any moment before that "go" takes
// its not-yet-started jobs with it, and the drain can start them again
// without a second start running beside the first.
//
// Like Node's own spawn: the executable is looked up on the job's PATH, the
// job's signals are reset to their defaults, and once the job exited its
// pipes get 100 ms to drain (a forked grandchild may hold them open). It
// exits when its stdin closes and its jobs ended.

export const HELPER_SCRIPT = String.raw`
import ctypes, errno, json, os, selectors, signal, stat, struct, sys, time

OUT = sys.stdout.fileno()
ME = os.getpid()
PR_SET_PDEATHSIG = 1
prctl = ctypes.CDLL(None, use_errno=True).prctl
sel = selectors.DefaultSelector()
jobs = {}
pids = {}
SIGDEF = [s for s in signal.valid_signals() if s not in (signal.SIGKILL, signal.SIGSTOP)]

def frame(kind, rid, data=b''):
    buf = struct.pack('>cII', kind, rid, len(data)) + data
    while buf:
        buf = buf[os.write(OUT, buf):]

def errno_frame(rid, e):
    code = errno.errorcode.get(e.errno, 'EIO') if e.errno else 'EIO'
    frame(b'E', rid, code.encode() + b'\0' + str(e.strerror or e).encode())

def find(file, env):
    if '/' in file:
        st = os.stat(file)  # its own errno: ENOENT, ENOTDIR, ELOOP...
        if stat.S_ISDIR(st.st_mode) or not os.access(file, os.X_OK):
            raise OSError(errno.EACCES, file)
        return file
    denied = False
    for d in env.get('PATH', os.defpath).split(':'):
        p = os.path.join(d or '.', file)
        if os.path.isfile(p):
            if os.access(p, os.X_OK):
                return p
            denied = True
    raise OSError(errno.EACCES if denied else errno.ENOENT, file)

def child(path, argv, env, cwd, i_r, o_w, e_w, x_w):
    try:
        os.setsid()
        if prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), 'prctl(PR_SET_PDEATHSIG)')
        if os.getppid() != ME:
            os._exit(126)  # the helper died before it could be watched: nobody knows this pid
        signal.set_wakeup_fd(-1)
        for s in SIGDEF:
            try:
                signal.signal(s, signal.SIG_DFL)
            except (OSError, ValueError):
                pass
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        os.dup2(i_r, 0)
        os.dup2(o_w, 1)
        os.dup2(e_w, 2)
        os.chdir(cwd)
        os.kill(os.getpid(), signal.SIGSTOP)
        os.execve(path, argv, env)
    except OSError as e:
        code = errno.errorcode.get(e.errno, 'EIO') if e.errno else 'EIO'
        try:
            os.write(x_w, code.encode() + b'\0' + str(e.strerror or e).encode())
        except OSError:
            pass
    os._exit(127)

def start(req):
    rid = req['id']
    fds = []
    try:
        path = find(req['argv'][0], req['env'])
        for _ in range(4):
            fds += os.pipe()
    except OSError as e:
        for fd in fds:
            os.close(fd)
        errno_frame(rid, e)
        return
    i_r, i_w, o_r, o_w, e_r, e_w, x_r, x_w = fds
    argv = [os.fsencode(a) for a in req['argv']]
    env = {os.fsencode(k): os.fsencode(v) for k, v in req['env'].items()}
    pid = os.fork()
    if pid == 0:
        child(path, argv, env, req['cwd'], i_r, o_w, e_w, x_w)
    for fd in (i_r, o_w, e_w, x_w):
        os.close(fd)
    os.set_blocking(x_r, False)
    job = {'id': rid, 'pid': pid, 'state': 'forked', 'open': 2, 'exit': None, 'until': None, 'in': req['stdin'].encode(), 'fds': {}, 'x': x_r}
    jobs[rid] = job
    pids[pid] = job
    for fd, kind in ((o_r, b'O'), (e_r, b'R')):
        os.set_blocking(fd, False)
        job['fds'][fd] = kind
        sel.register(fd, selectors.EVENT_READ, (job, kind))
    os.set_blocking(i_w, False)
    job['stdin'] = i_w
    feed(job)

def go(rid):
    job = jobs.get(rid)
    if job is not None and job['state'] == 'stopped':
        job['state'] = 'running'
        os.kill(job['pid'], signal.SIGCONT)

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

def exec_error(job):
    try:
        data = os.read(job['x'], 4096)
    except OSError:
        data = b''
    os.close(job['x'])
    return data

def finish(job):
    for fd in list(job['fds']):
        close_out(job, fd)
    if job['stdin'] is not None:
        job['in'] = b''
        feed(job)
    failed = exec_error(job)
    if failed:
        frame(b'E', job['id'], failed)
    else:
        code, sig = job['exit']
        frame(b'X', job['id'], ('%s %s' % (code, sig)).encode())
    del jobs[job['id']]

def reap():
    while pids:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG | os.WUNTRACED)
        except ChildProcessError:
            return
        if pid == 0:
            return
        job = pids.get(pid)
        if job is None:
            continue
        if os.WIFSTOPPED(status):
            if job['state'] == 'forked':
                job['state'] = 'stopped'
                frame(b'P', job['id'], str(pid).encode())
            continue
        del pids[pid]
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
                for job in jobs.values():
                    if job['state'] != 'running' and job['pid'] in pids:
                        os.kill(job['pid'], signal.SIGKILL)  # never continued: never ran
                continue
            pending += chunk
            while b'\n' in pending:
                line, pending = pending.split(b'\n', 1)
                req = json.loads(line)
                if 'go' in req:
                    go(req['go'])
                else:
                    start(req)
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
