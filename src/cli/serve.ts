// `chrys-hooks serve --stdio`: one request per line on stdin, one answer per
// line on stdout, in order. Requests are answered one at a time, so hooks run
// in the order the events arrived and a slow hook delays the requests behind
// it (its timeout still applies). EOF ends the server once the request in
// flight is answered; SIGTERM and SIGINT do the same without reading further
// lines; a closed stdout ends it quietly.

import { ChrysError, EXIT } from '../core/errors.js';
import { MAX_ENVELOPE_BYTES } from '../core/envelope.js';
import { failClosedFrom } from '../core/fail-closed.js';
import { answerRequest, tooLargeAnswer } from '../engine/serve-request.js';
import type { CliGlobals } from './globals.js';
import { useSpawnHelper } from '../run/spawn-helper.js';
import { type Line, LineSplitter } from './lines.js';
import type { CommandResult } from './output.js';

// Read ahead at most this many lines; past it stdin is paused until the queue drains.
const READ_AHEAD = 64;

export async function runServe(_args: string[], opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  if (!opts.stdio) throw new ChrysError('usage', 'serve needs --stdio (the only transport so far)');
  const { configDir, cwd, projectHooks } = globals;
  const failClosed = failClosedFrom(opts.failClosed, process.env);
  const fireOpts = { ...(configDir ? { configDir } : {}), ...(cwd ? { cwd } : {}), ...(projectHooks !== undefined ? { projectHooks } : {}), ...(failClosed ? { failClosed } : {}) };
  // A closed stdout ends a server quietly (exit 0): drop the one-shot commands' guard, which exits 74.
  process.stdout.removeAllListeners('error');
  useSpawnHelper();
  await serveLines(process.stdin, process.stdout, (line) => ('text' in line ? answerRequest(line.text, fireOpts) : Promise.resolve(tooLargeAnswer(line.tooLarge, MAX_ENVELOPE_BYTES))));
  return { exitCode: EXIT.ok };
}

/** Answers each line of `input` on `output`, in order; resolves when the server stops. */
function serveLines(input: NodeJS.ReadableStream & { destroy(): void }, output: NodeJS.WritableStream & { readonly writableNeedDrain: boolean }, answer: (line: Line) => Promise<string>): Promise<void> {
  return new Promise((done) => {
    const splitter = new LineSplitter(MAX_ENVELOPE_BYTES);
    const queue: Line[] = [];
    let inputEnded = false;
    let stopping = false;
    let busy = false;

    let wakeWriter = (): void => {};
    const stop = (): void => {
      stopping = true;
      input.destroy();
      wakeWriter();
      if (!busy) finish();
    };
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      done();
    };
    // Answers go out at the end of the event-loop turn that made them: those
    // of queued requests that need no I/O (no hook runs) leave in one write,
    // and an answer never waits for a request behind it that runs a hook.
    let unsent = '';
    let flushQueued = false;
    const flush = (): void => {
      flushQueued = false;
      if (unsent === '' || outputClosed) return;
      output.write(unsent);
      unsent = '';
    };
    const send = (text: string): void => {
      unsent += text;
      if (!flushQueued) {
        flushQueued = true;
        setImmediate(flush);
      }
    };
    const pump = async (): Promise<void> => {
      if (busy) return;
      busy = true;
      while (queue.length > 0 && !stopping) {
        const text = await answer(queue.shift()!);
        if (stopping && outputClosed) break;
        send(`${text}\n`);
        if (output.writableNeedDrain) await new Promise<void>((r) => {
          wakeWriter = r;
          output.once('drain', r);
        });
        if (queue.length < READ_AHEAD / 2 && !inputEnded) input.resume();
      }
      flush();
      busy = false;
      if (stopping || (inputEnded && queue.length === 0)) finish();
    };

    let outputClosed = false;
    output.on('error', () => {
      // EPIPE: the reader went away; nobody is left to answer.
      outputClosed = true;
      stop();
    });
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    input.on('data', (chunk: Buffer) => {
      if (stopping) return;
      queue.push(...splitter.push(chunk));
      if (queue.length >= READ_AHEAD) input.pause();
      void pump();
    });
    input.on('end', () => {
      inputEnded = true;
      if (!stopping) queue.push(...splitter.end());
      void pump();
    });
    input.on('error', stop);
  });
}
