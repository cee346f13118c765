// The wrapper unwrapper behind match.command (src/core/shell/unwrap.ts), one
// case per wrapper and per option that takes a value, and the edges of the
// shells, find, env, xargs, parallel, variables and interpreter one-liners.
//
// The module is imported afresh for every test: its wrapper and option tables
// are built when it loads, and mutation testing switches a mutant on only
// after a test file's own imports have run, so a table entry can be told
// apart only by a module loaded inside the test.

import { beforeEach, describe, expect, it, vi } from 'vitest';

type Unwrap = typeof import('../../src/core/shell/unwrap.js');
type Match = typeof import('../../src/core/shell/command-match.js');
let U: Unwrap;
let M: Match;
beforeEach(async () => {
  vi.resetModules();
  U = await import('../../src/core/shell/unwrap.js');
  M = await import('../../src/core/shell/command-match.js');
});

/** Every simple command the line runs, as shown in a reason. */
const commands = (line: string): string[] => U.analyseCommandLine(line).commands.map((c) => M.showCommand(c));
const opaque = (line: string): string[] => U.analyseCommandLine(line).opaque.map((o) => `${o.what}:${o.code}`);

describe('the limits', () => {
  it('are 64 KiB and 8 wrappers', () => {
    expect(U.MAX_COMMAND_LINE_BYTES).toBe(65536);
    expect(U.MAX_UNWRAP_DEPTH).toBe(8);
  });

  it('reports a line over the byte limit with its size', () => {
    expect(U.analyseCommandLine('é'.repeat(40000)).failClosed).toEqual(['the command line is 80000 bytes, over the 65536-byte limit, and was not parsed']);
  });

  it('reports nesting past the limit with the wrappers it went through', () => {
    const evals = (n: number): string => `${'eval '.repeat(n)}rm x`;
    expect(U.analyseCommandLine(evals(8))).toMatchObject({ failClosed: [] });
    expect(commands(evals(8)).at(-1)).toBe(`rm x (in ${Array(8).fill('eval').join(' → ')})`);
    expect(U.analyseCommandLine(evals(9)).failClosed).toEqual([`wrappers nest deeper than 8 (${Array(9).fill('eval').join(' → ')})`]);
    expect(U.analyseCommandLine(`${'sudo '.repeat(9)}rm x`).failClosed).toEqual([`wrappers nest deeper than 8 (${Array(9).fill('sudo').join(' → ')})`]);
    // a wrapper with nothing to run at the limit is no deeper nesting
    expect(U.analyseCommandLine('sudo '.repeat(9).trim()).failClosed).toEqual([]);
  });

  it('says where a string that cannot be parsed was found', () => {
    expect(U.analyseCommandLine("echo 'x").failClosed).toEqual(['the command line cannot be parsed: unterminated single quote at 6']);
    expect(U.analyseCommandLine(`sudo bash -c "echo 'x"`).failClosed).toEqual(['the command line cannot be parsed inside sudo → bash -c: unterminated single quote at 6']);
  });
});

describe('wrappers: the command after each option that takes a value', () => {
  it.each([
    ['sudo -u root rm x', 'rm x (in sudo)'],
    ['sudo -g wheel rm x', 'rm x (in sudo)'],
    ['sudo -C 3 rm x', 'rm x (in sudo)'],
    ['sudo -D /tmp rm x', 'rm x (in sudo)'],
    ['sudo -h host rm x', 'rm x (in sudo)'],
    ['sudo -p prompt rm x', 'rm x (in sudo)'],
    ['sudo -r role rm x', 'rm x (in sudo)'],
    ['sudo -t type rm x', 'rm x (in sudo)'],
    ['sudo -T 10 rm x', 'rm x (in sudo)'],
    ['sudo -U bob rm x', 'rm x (in sudo)'],
    ['sudo --user root rm x', 'rm x (in sudo)'],
    ['sudo --group wheel rm x', 'rm x (in sudo)'],
    ['sudo --close-from 3 rm x', 'rm x (in sudo)'],
    ['sudo --chdir /tmp rm x', 'rm x (in sudo)'],
    ['sudo --host h rm x', 'rm x (in sudo)'],
    ['sudo --prompt p rm x', 'rm x (in sudo)'],
    ['sudo --role r rm x', 'rm x (in sudo)'],
    ['sudo --type t rm x', 'rm x (in sudo)'],
    ['sudo --command-timeout 5 rm x', 'rm x (in sudo)'],
    ['sudo --other-user bob rm x', 'rm x (in sudo)'],
    ['sudo -Eu root rm x', 'rm x (in sudo)'],
    ['sudo A=1 B=2 rm x', 'rm x (in sudo)'],
    ['doas -u root rm x', 'rm x (in doas)'],
    ['doas -C conf rm x', 'rm x (in doas)'],
    ['exec -a name rm x', 'rm x (in exec)'],
    ['nohup rm x', 'rm x (in nohup)'],
    ['setsid rm x', 'rm x (in setsid)'],
    ['unbuffer rm x', 'rm x (in unbuffer)'],
    ['builtin rm x', 'rm x (in builtin)'],
    ['chronic rm x', 'rm x (in chronic)'],
    ['busybox rm x', 'rm x (in busybox)'],
    ['time -f %e rm x', 'rm x (in time)'],
    ['time --format %e rm x', 'rm x (in time)'],
    ['time -o out rm x', 'rm x (in time)'],
    ['time --output out rm x', 'rm x (in time)'],
    ['timeout 5 rm x', 'rm x (in timeout)'],
    ['timeout -s KILL 5 rm -rf /', 'rm -rf / (in timeout)'],
    ['timeout --signal KILL 5 rm x', 'rm x (in timeout)'],
    ['timeout -k 1 5 rm x', 'rm x (in timeout)'],
    ['timeout --kill-after 1 5 rm x', 'rm x (in timeout)'],
    ['nice -n 5 rm x', 'rm x (in nice)'],
    ['nice --adjustment 5 rm x', 'rm x (in nice)'],
    ['ionice -c 3 rm x', 'rm x (in ionice)'],
    ['ionice --class 3 rm x', 'rm x (in ionice)'],
    ['ionice -n 7 rm x', 'rm x (in ionice)'],
    ['ionice --classdata 7 rm x', 'rm x (in ionice)'],
    ['ionice -p 1 rm x', 'rm x (in ionice)'],
    ['ionice --pid 1 rm x', 'rm x (in ionice)'],
    ['ionice -P 1 rm x', 'rm x (in ionice)'],
    ['ionice --pgid 1 rm x', 'rm x (in ionice)'],
    ['ionice -u 0 rm x', 'rm x (in ionice)'],
    ['ionice --uid 0 rm x', 'rm x (in ionice)'],
    ['stdbuf -i 0 rm x', 'rm x (in stdbuf)'],
    ['stdbuf -o L rm x', 'rm x (in stdbuf)'],
    ['stdbuf -e 0 rm x', 'rm x (in stdbuf)'],
    ['stdbuf --input 0 rm x', 'rm x (in stdbuf)'],
    ['stdbuf --output L rm x', 'rm x (in stdbuf)'],
    ['stdbuf --error 0 rm x', 'rm x (in stdbuf)'],
    ['watch -n 1 rm x', 'rm x (in watch)'],
    ['watch --interval 1 rm x', 'rm x (in watch)'],
    ['watch -d 1 rm x', 'rm x (in watch)'],
    ['watch -q 1 rm x', 'rm x (in watch)'],
    ['watch --equexit 1 rm x', 'rm x (in watch)'],
    ['xargs -a list rm', 'rm (in xargs)'],
    ['xargs --arg-file list rm', 'rm (in xargs)'],
    ['xargs -d , rm', 'rm (in xargs)'],
    ['xargs --delimiter , rm', 'rm (in xargs)'],
    ['xargs -E end rm', 'rm (in xargs)'],
    ['xargs -I % rm', 'rm (in xargs)'],
    ['xargs -J % rm', 'rm (in xargs)'],
    ['xargs -R 1 rm', 'rm (in xargs)'],
    ['xargs -S 255 rm', 'rm (in xargs)'],
    ['xargs -L 1 rm', 'rm (in xargs)'],
    ['xargs -n 1 rm', 'rm (in xargs)'],
    ['xargs --max-args 1 rm', 'rm (in xargs)'],
    ['xargs -P 4 rm', 'rm (in xargs)'],
    ['xargs --max-procs 4 rm', 'rm (in xargs)'],
    ['xargs -s 99 rm', 'rm (in xargs)'],
    ['xargs --max-chars 99 rm', 'rm (in xargs)'],
    ['xargs --process-slot-var V rm', 'rm (in xargs)'],
    ['xargs --max-lines 1 rm', 'rm (in xargs)'],
    ['xargs --eof end rm', 'rm (in xargs)'],
    ['parallel -j 2 rm', 'rm (in parallel)'],
    ['parallel --jobs 2 rm', 'rm (in parallel)'],
    ['parallel -S host rm', 'rm (in parallel)'],
    ['parallel --sshlogin host rm', 'rm (in parallel)'],
    ['parallel -a list rm', 'rm (in parallel)'],
    ['parallel --arg-file list rm', 'rm (in parallel)'],
    ['parallel -d , rm', 'rm (in parallel)'],
    ['parallel --delimiter , rm', 'rm (in parallel)'],
    ['parallel -I % rm', 'rm (in parallel)'],
    ['parallel --joblog log rm', 'rm (in parallel)'],
    ['parallel --results dir rm', 'rm (in parallel)'],
    ['parallel --tmpdir dir rm', 'rm (in parallel)'],
    ['parallel --timeout 9 rm', 'rm (in parallel)'],
    ['parallel -N 1 rm', 'rm (in parallel)'],
    ['parallel -n 1 rm', 'rm (in parallel)'],
    ['parallel --max-args 1 rm', 'rm (in parallel)'],
    ['parallel --colsep , rm', 'rm (in parallel)'],
    ['parallel -C , rm', 'rm (in parallel)'],
  ])('%j runs only %j inside', (line, inner) => {
    expect(commands(line)).toEqual([line, inner]);
  });

  it.each([['sh'], ['bash'], ['zsh'], ['dash'], ['ksh'], ['ash'], ['mksh'], ['yash'], ['fish']])('%s -c runs its string', (shell) => {
    expect(commands(`${shell} -c 'rm x'`)).toEqual([`${shell} -c 'rm x'`, `rm x (in ${shell} -c)`]);
  });

  it('takes NAME=value words after sudo only', () => {
    expect(commands('sudo A=1')).toEqual(['sudo A=1']);
    expect(commands('nohup A=1 rm x')).toEqual(['nohup A=1 rm x', 'A=1 rm x (in nohup)']);
    expect(commands('sudo 1A=2 rm x')).toEqual(['sudo 1A=2 rm x', '1A=2 rm x (in sudo)']);
  });

  it('reads the options as skipOptions does: `--` ends them, `-` is the command', () => {
    expect(commands('nice -- -x rm')).toEqual(['nice -- -x rm', '-x rm (in nice)']);
    expect(commands('nice - x')).toEqual(['nice - x', '- x (in nice)']);
    expect(commands('nice -n5 rm x')).toEqual(['nice -n5 rm x', 'rm x (in nice)']);
    expect(commands('nice --adjustment=5 rm x')).toEqual(['nice --adjustment=5 rm x', 'rm x (in nice)']);
  });

  it('joins the words of watch and eval into one line', () => {
    expect(commands('watch ls -l')).toEqual(['watch ls -l', 'ls -l (in watch)']);
    expect(commands("eval 'ls' -l")).toEqual(['eval ls -l', 'ls -l (in eval)']);
  });
});

describe('xargs and parallel', () => {
  it('runs echo when xargs names no command, with arguments added at run time', () => {
    const a = U.analyseCommandLine('xargs');
    expect(a.commands.map((c) => M.showCommand(c))).toEqual(['xargs', 'echo (in xargs)']);
    expect(a.commands[1]).toMatchObject({ program: 'echo', openArgs: 'xargs adds arguments read from its input at run time' });
    expect(a.commands[1]!.words).toEqual([{ text: 'echo', expanded: false, substituted: false, quoted: false, plain: true }]);
    expect(a.dynamic).toEqual([]);
    expect(commands('xargs -n 1')).toEqual(['xargs -n 1', 'echo (in xargs)']);
  });

  it('reads parallel’s ::: and :::: separators', () => {
    const args = U.analyseCommandLine('parallel ::: rm x');
    expect(args.commands.map((c) => M.showCommand(c))).toEqual(['parallel ::: rm x', 'rm x (in parallel)']);
    expect(args.commands[1]!.openArgs).toBeUndefined();
    expect(commands('parallel rm ::: a ::: b')).toEqual(['parallel rm ::: a ::: b', 'rm a b (in parallel)']);
    expect(commands('parallel -j ::: rm ::: a')).toEqual(['parallel -j ::: rm ::: a', 'rm a (in parallel)']);
    const files = U.analyseCommandLine('parallel rm :::: list');
    expect(files.commands.map((c) => M.showCommand(c))).toEqual(['parallel rm :::: list', 'rm list (in parallel)']);
    expect(files.commands[1]!.openArgs).toBe('parallel reads arguments from files at run time');
    const before = U.analyseCommandLine('parallel -a ::: rm x');
    expect(before.commands.map((c) => M.showCommand(c))).toEqual(['parallel -a ::: rm x', 'rm x (in parallel)']);
    expect(before.commands[1]!.openArgs).toBe('parallel adds arguments read from its input at run time');
    const input = U.analyseCommandLine('parallel rm');
    expect(input.commands.map((c) => M.showCommand(c))).toEqual(['parallel rm', 'rm (in parallel)']);
    expect(input.commands[1]!.openArgs).toBe('parallel adds arguments read from its input at run time');
  });
});

describe('command', () => {
  it('runs what follows unless -v or -V only looks it up', () => {
    expect(commands('command rm -v x')).toEqual(['command rm -v x', 'rm -v x (in command)']);
    expect(commands('command -pv rm')).toEqual(['command -pv rm']);
    expect(commands('command -V rm')).toEqual(['command -V rm']);
    expect(commands('command --verbose rm x')).toEqual(['command --verbose rm x', 'rm x (in command)']);
  });
});

describe('shells', () => {
  it('reads the code after -c in a cluster, skipping -o and rc-file values', () => {
    expect(commands("bash -ec 'rm x'")).toEqual(["bash -ec 'rm x'", 'rm x (in bash -c)']);
    expect(commands("bash -o errexit -c 'rm x'")).toEqual(["bash -o errexit -c 'rm x'", 'rm x (in bash -c)']);
    expect(commands("bash --norc -c 'rm x'")).toEqual(["bash --norc -c 'rm x'", 'rm x (in bash -c)']);
    expect(commands("bash --rcfile -c 'rm x'")).toEqual(["bash --rcfile -c 'rm x'"]);
    expect(commands("bash --init-file -c 'rm x'")).toEqual(["bash --init-file -c 'rm x'"]);
    expect(commands("bash --rcfile f -c 'rm x'")).toEqual(["bash --rcfile f -c 'rm x'", 'rm x (in bash -c)']);
    expect(commands('bash -c')).toEqual(['bash -c']);
    expect(commands('bash -e script.sh')).toEqual(['bash -e script.sh']);
  });

  it('reads its input when it has no script, after `-` or `--` too', () => {
    expect(commands('echo rm x | bash')).toEqual(['echo rm x', 'bash', 'rm x (in bash reading its input)']);
    expect(commands('echo rm x | bash -')).toEqual(['echo rm x', 'bash -', 'rm x (in bash reading its input)']);
    expect(commands('echo rm x | bash --')).toEqual(['echo rm x', 'bash --', 'rm x (in bash reading its input)']);
    expect(commands('echo rm x | bash --norc')).toEqual(['echo rm x', 'bash --norc', 'rm x (in bash reading its input)']);
    expect(commands('echo rm x | bash script.sh')).toEqual(['echo rm x', 'bash script.sh']);
    expect(U.analyseCommandLine('bash').opaque).toEqual([]);
    expect(U.analyseCommandLine('echo rm x | bash script.sh').opaque).toEqual([]);
  });

  it('knows what a pipe feeds it: echo and printf text, or the pipe’s source', () => {
    expect(commands('echo -n rm x | bash')).toEqual(['echo -n rm x', 'bash', 'rm x (in bash reading its input)']);
    expect(commands('echo -ne rm x | bash')).toEqual(['echo -ne rm x', 'bash', 'rm x (in bash reading its input)']);
    expect(commands('echo -nx rm | bash')).toEqual(['echo -nx rm', 'bash', '-nx rm (in bash reading its input)']);
    expect(commands('echo x-n rm | bash')).toEqual(['echo x-n rm', 'bash', 'x-n rm (in bash reading its input)']);
    expect(commands('echo rm -n | bash')).toEqual(['echo rm -n', 'bash', 'rm -n (in bash reading its input)']);
    expect(commands('printf -e | bash')).toEqual(['printf -e', 'bash', '-e (in bash reading its input)']);
    expect(commands("printf 'rm a\\nrm b' | bash")).toEqual(["printf 'rm a\\nrm b'", 'bash', 'rm a (in bash reading its input)', 'rm b (in bash reading its input)']);
    expect(commands("printf 'rm %s %s' x | bash")).toEqual(["printf 'rm %s %s' x", 'bash', 'rm x (in bash reading its input)']);
    expect(commands('printf | bash')).toEqual(['printf', 'bash']);
    expect(U.analyseCommandLine('echo $X rm | bash').opaque).toEqual([{ what: 'bash reading a pipe', code: 'echo $X rm' }]);
    expect(U.analyseCommandLine('echo $(date) | bash').opaque).toEqual([{ what: 'bash reading a pipe', code: 'echo $(date)' }]);
    expect(U.analyseCommandLine('<a >b | bash').opaque).toEqual([{ what: 'bash reading a pipe', code: '<a >b' }]);
    expect(U.analyseCommandLine('A=1 | bash').opaque).toEqual([{ what: 'bash reading a pipe', code: 'A=1' }]);
  });
});

describe('find', () => {
  it.each([
    ['find -exec rm {} +', 'rm . (in find -exec)'],
    ['find /r -execdir rm {} +', 'rm /r (in find -execdir)'],
    ['find . -okdir rm {} +', 'rm . (in find -okdir)'],
    ['find . -exec rm {}', 'rm . (in find -exec)'],
    ['find -H /r -exec rm {} +', 'rm /r (in find -exec)'],
    ['find -L -P /r -exec rm {} +', 'rm /r (in find -exec)'],
    ['find -O3 /r -exec rm {} +', 'rm /r (in find -exec)'],
    ['find -D debug /r -exec rm {} +', 'rm /r (in find -exec)'],
    ['find -Px /r -exec rm {} +', 'rm . (in find -exec)'],
    ['find -O1x /r -exec rm {} +', 'rm . (in find -exec)'],
    ['find a-H -exec rm {} +', 'rm a-H (in find -exec)'],
    ['find a-O1 -exec rm {} +', 'rm a-O1 (in find -exec)'],
    ['find /r -exec mv {} {}.bak +', 'mv /r /r.bak (in find -exec)'],
  ])('%j runs %j', (line, inner) => {
    expect(commands(line).slice(1)).toEqual([inner]);
  });

  it('runs nothing without an -exec, and reads past the end safely', () => {
    expect(commands('find')).toEqual(['find']);
    expect(commands('find -H')).toEqual(['find -H']);
    expect(commands('find /r')).toEqual(['find /r']);
    expect(commands('find /r -exec')).toEqual(['find /r -exec']);
  });
});

describe('env', () => {
  it.each([
    ['env -- -x y', '-x y (in env)'],
    ['env --unset A rm x', 'rm x (in env)'],
    ['env -u A rm x', 'rm x (in env)'],
    ['env -C /tmp rm x', 'rm x (in env)'],
    ['env --chdir /tmp rm x', 'rm x (in env)'],
    ["env --split-string 'rm -rf /'", 'rm -rf / (in env)'],
    ["env -S 'A=1 rm x'", 'A=1 rm x (in env)'],
    ["env '-Srm x'", 'rm x (in env)'],
    ["env '--split-string=rm x'", 'rm x (in env)'],
    ['env x-Srm', 'x-Srm (in env)'],
    ["env -S '' rm x", 'rm x (in env)'],
    ['env -i A=1 1B=2 rm', '1B=2 rm (in env)'],
    // `-` alone is -i, as for GNU and BSD env
    ['env - rm -rf /', 'rm -rf / (in env)'],
  ])('%j runs %j', (line, inner) => {
    expect(commands(line).slice(1)).toEqual([inner]);
  });

  it('runs nothing when only options or assignments follow', () => {
    expect(commands('env -i')).toEqual(['env -i']);
    expect(commands('env -S')).toEqual(['env -S']);
    expect(commands('env A=1')).toEqual(['env A=1']);
  });
});

describe('variables assigned earlier on the line', () => {
  it.each([
    ['export X=rm; $X y', ['export X=rm', 'rm y']],
    ['declare X=rm; $X y', ['declare X=rm', 'rm y']],
    ['local X=rm; $X y', ['local X=rm', 'rm y']],
    ['readonly X=rm; $X y', ['readonly X=rm', 'rm y']],
    ['typeset X=rm; $X y', ['typeset X=rm', 'rm y']],
    ['export -n X=rm; $X y', ['export -n X=rm', 'rm y']],
    ['echo X=rm; $X y', ['echo X=rm', '$X y']],
    ['export 1X=rm; $X y', ['export 1X=rm', '$X y']],
    ['X+=rm; $X y', ['rm y']],
    ['XY=rm; $XY y', ['rm y']],
    ['XY=rm; ${XY} y', ['rm y']],
    ['X=rmdir; $X y', ['rmdir y']],
    ["X=rm; echo '$X'", ['echo $X']],
    ['X=rm; echo "$X$(y)"', ['y (in $(...))', "echo '$X$(y)'"]],
    ['X=1; echo ${B:-a b}', ["echo '${B:-a b}'"]],
    ['X=" rm x"; $X', ['rm x']],
    ['X=; $X', []],
    ['X=$(a); $X y', ['a (in $(...))', '$X y']],
    ['X=`a`; $X y', ['a (in `...`)', '$X y']],
    ['X=r; Y=${X}m; $Y y', ['rm y']],
  ] as const)('%j runs %j', (line, expected) => {
    expect(commands(line)).toEqual(expected);
  });

  it('keeps a program still holding an expansion for run time', () => {
    expect(U.analyseCommandLine('X=r; ${X}${Q}').dynamic.map((c) => c.argv[0])).toEqual(['r${Q}']);
    expect(U.analyseCommandLine('X=r; ${X}$Q').dynamic.map((c) => c.argv[0])).toEqual(['r$Q']);
    expect(U.analyseCommandLine('X=r; ${X}m').dynamic).toEqual([]);
  });
});

describe('interpreter one-liners', () => {
  it.each([
    ['python -cx', ['python -c:x']],
    ['python -B -c x', ['python -c:x']],
    ['python3.12 -c x', ['python3.12 -c:x']],
    ['pypy3.10 -c x', ['pypy3.10 -c:x']],
    ['mypython -c x', []],
    ['pythonista -c x', []],
    ['python -c', []],
    ['python -B', []],
    ['python x.py -c y', []],
    ['python - -c x', []],
    ['python -- -c x', []],
    ['python --xc 1', []],
    ['python', []],
    ['echo x | python', ['python reading its input:x']],
    ['echo x | python -B', ['python reading its input:x']],
    ['echo x | python x.py', []],
    // `-` names the standard input as the script, with arguments after it
    ['echo x | python - arg', ['python reading its input:x']],
    ['echo x | python -', ['python reading its input:x']],
    ['node -e x', ['node -e:x']],
    ['nodejs -e x', ['nodejs -e:x']],
    ['bun -e x', ['bun -e:x']],
    ['node --print x', ['node -e:x']],
    ['node -p x', ['node -e:x']],
    ['node -pe x', ['node -e:x']],
    ['node --eval', []],
    ['node app.js arg', []],
    ['echo x | node', ['node reading its input:x']],
    ['echo x | node app.js', []],
    ['deno eval a b', ['deno eval:a b']],
    ['deno eval', []],
    ['deno run x.ts', []],
    ['deno', []],
    ['perl -e x', ['perl -e:x']],
    ['perl --xe 1', []],
    ['echo x | perl', ['perl reading its input:x']],
    ['echo x | perl s.pl', []],
    ['ruby -e x', ['ruby -e:x']],
    ['php -r x', ['php -r:x']],
    ['php --r 1', []],
    ['lua -e x', ['lua -e:x']],
    ['lua --e 1', []],
    ['rscript -e x', ['rscript -e:x']],
    ['Rscript -e x', ['Rscript -e:x']],
    ['osascript -e x', ['osascript -e:x']],
    ['awk p f', ['awk:p']],
    ['gawk p f', ['gawk:p']],
    ['mawk p f', ['mawk:p']],
    ['nawk p f', ['nawk:p']],
    ['busybox-awk p f', ['busybox-awk:p']],
    ['awk', []],
    ['awk -F:', []],
    ['awk -F : p f', ['awk:p']],
    ['awk -v a=1 p f', ['awk:p']],
    ['awk -- -v x', ['awk:-v']],
    ['awk -- p', ['awk:p']],
    ['awk - p', ['awk:-']],
    ['awk -f p.awk f', []],
    ['awk --file=p.awk f', []],
  ] as const)('%j keeps %j aside', (line, expected) => {
    expect(opaque(line)).toEqual(expected);
  });
});

describe('the wrappers and options added after a review', () => {
  const valuesOf: Record<string, { options: string[]; before?: string }> = {
    chroot: { options: ['--userspec', '--groups'], before: '/' },
    strace: { options: ['-e', '-o', '-p', '-s', '-u', '-a', '-b', '-E', '-I', '-O', '-P', '-S', '-X', '-U'] },
    ltrace: { options: ['-e', '-o', '-p', '-s', '-u', '-a', '-n', '-l', '-w', '-A', '-D', '-F', '-x'] },
    'systemd-run': { options: ['-p', '--property', '-u', '--unit', '-E', '--setenv', '-M', '--machine', '-H', '--host', '--description', '--slice', '--uid', '--gid', '--nice', '--working-directory', '--service-type', '--on-active', '--on-calendar'] },
    flock: { options: ['-w', '--wait', '--timeout', '-E', '--conflict-exit-code'], before: 'lockfile' },
    sudo: { options: ['-R', '--chroot'] },
  };
  it.each(Object.entries(valuesOf).flatMap(([w, { options, before }]) => options.map((o) => [`${w} ${o} V ${before ? `${before} ` : ''}rm x`, `rm x (in ${w})`])))('%s runs %s', (line, last) => {
    expect(commands(line).at(-1)).toBe(last);
  });

  it.each(['--halt', '--delay', '--retries', '--load', '--memfree', '--workdir', '--env', '--tagstring', '--sshloginfile', '--basefile'])('parallel %s takes a value', (o) => {
    expect(commands(`parallel ${o} V rm ::: a`).at(-1)).toBe('rm a (in parallel)');
  });

  it.each([
    ['coproc rm x', 'rm x (in coproc)'],
    ["su -c 'rm x'", 'rm x (in su → sh -c)'],
    ["su root -lc 'rm x'", 'rm x (in su → sh -c)'],
    ["su --command='rm x'", 'rm x (in su → sh -c)'],
    ["script -qc 'rm x' /dev/null", 'rm x (in script → sh -c)'],
    ["flock f -c 'rm x'", 'rm x (in flock → sh -c)'],
    ["flock f --command 'rm x'", 'rm x (in flock → sh -c)'],
  ])('%s runs %s', (line, last) => {
    expect(commands(line).at(-1)).toBe(last);
  });

  it.each([['su'], ['su root'], ['script out.log'], ['su -c']])('%s runs nothing on the line', (line) => {
    expect(commands(line)).toHaveLength(1);
  });

  it.each<[string, string[]]>([
    ...['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--input-type', '--env-file', '--title'].map((o) => [`echo x | node ${o} V`, ['node reading its input:x']] as [string, string[]]),
    ['echo x | node script.js', []],
    ...['-I', '-r', '-C', '-x'].map((o) => [`echo x | ruby ${o} V`, ['ruby reading its input:x']] as [string, string[]]),
    ['echo x | ruby -w script.rb', []],
    ...['-d', '-c', '-z'].map((o) => [`php ${o} V -r x`, ['php -r:x']] as [string, string[]]),
    ['echo x | php -d V', ['php reading its input:x']],
    ['lua -l V -e x', ['lua -e:x']],
    ...['-', '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0'].map((p) => [`echo x | python3 ${p}`, ['python3 reading its input:x']] as [string, string[]]),
    ['echo x | python3 -- /dev/stdin', ['python3 reading its input:x']],
    ['echo x | python3 --', ['python3 reading its input:x']],
    ['echo x | python3 -- script.py', []],
    ['echo x | python3 --check-hash-based-pycs always', ['python3 reading its input:x']],
    ['echo x | python3 -m http.server', []],
    ['python3 -W ignore -c x', ['python3 -c:x']],
    ['python3 -Wignore -c x', ['python3 -c:x']],
    ['python3 -X dev -c x', ['python3 -c:x']],
    ['python3 -bc x', ['python3 -c:x']],
  ])('%s is opaque as %j', (line, out) => {
    expect(opaque(line)).toEqual(out);
  });

  it.each([
    ["bash /dev/stdin <<< 'rm x'", 'rm x (in bash reading its input)'],
    ["cat <<'E' | bash\nrm x\nE", 'rm x (in bash reading its input)'],
    ["cat - <<'E' | bash\nrm x\nE", 'rm x (in bash reading its input)'],
    ["env -iS 'rm x'", 'rm x (in env)'],
    ['env -iu HOME rm x', 'rm x (in env)'],
    ['env -iuHOME rm x', 'rm x (in env)'],
    ['env -vC /tmp rm x', 'rm x (in env)'],
    ['env --argv0 a rm x', 'rm x (in env)'],
    ["bash -c 'rm \"$1\"' _ /", 'rm / (in bash -c)'],
    ["bash -c 'rm $0' /", 'rm / (in bash -c)'],
    ["bash -c 'rm ${1}' _ /", 'rm / (in bash -c)'],
    ["bash -c 'rm \"$@\"' _ a b", 'rm a b (in bash -c)'],
    ["bash -c 'rm \"${@}\"' _ a b", 'rm a b (in bash -c)'],
    ["bash -c 'rm $*' _ a b", 'rm a b (in bash -c)'],
  ])('%s runs %s', (line, last) => {
    expect(commands(line).at(-1)).toBe(last);
  });

  it('a -c string’s positional parameters hold only while it is read', () => {
    expect(commands("bash -c 'rm $1' _ /; rm $1")).toEqual(["bash -c 'rm $1' _ /", 'rm / (in bash -c)', 'rm $1']);
    expect(commands("X=1; bash -c 'rm $X' _ /; rm $X").at(-1)).toBe('rm 1');
    expect(commands("bash -c 'rm $1' _ $(echo /)").at(-1)).toBe('rm $1 (in bash -c)');
    // A nested string's arguments hold inside it; the enclosing string's come back after it.
    expect(commands(`bash -c 'bash -c "rm \\$1" _ a; rm "$@"' _ /`).slice(-2)).toEqual(['rm a (in bash -c → bash -c)', 'rm / (in bash -c)']);
  });

  it('a shell reading a process substitution reads a pipe', () => {
    expect(opaque("bash < <(echo 'rm x')")).toEqual(["bash reading a pipe:echo 'rm x'"]);
    expect(opaque('bash 0< <(cat f)')).toEqual(['bash reading a pipe:cat f']);
    expect(opaque('bash < f')).toEqual([]);
  });
});
