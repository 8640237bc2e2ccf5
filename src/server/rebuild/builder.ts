/**
 * Runs one build in a child process: `scripts/build.ts --out-dir {dir}` with the server's own
 * environment (its upstream), or in tests the shell command `REBUILD_COMMAND` with the
 * directory in `$RELEASE_DIR`. Output goes to the release's log file, not the server's log;
 * the outcome carries the cause of a failure: the build's `BUILD_FAILURE` line (failure.ts: the
 * error's own message, and whether it may pass), else the last meaningful output lines, stack
 * lines left out. The child
 * runs in its own process group at a lower CPU priority than the server (the shop keeps
 * answering while it builds) and is stopped, with its children, past the time limit.
 *
 * With `publisher`, the build is asked to stay once done (`scripts/build.ts --publisher`, over
 * IPC): it is done when it says `publisher-ready`, not when it exits, and the outcome carries a
 * handle to send it publish requests (src/server/publish/publisher-loop.ts) until it is stopped.
 */
import { spawn } from 'node:child_process';
import { open, readFile } from 'node:fs/promises';
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readFailureLine } from './failure.ts';
import { sendOrDrop } from './messages.ts';

export interface BuildRun {
  /** The new release's directory (absolute). */
  outDir: string;
  /** `[executable, ...args]`, or a shell command line (tests: `REBUILD_COMMAND`). */
  command: readonly string[] | { shell: string };
  env: NodeJS.ProcessEnv;
  logFile: string;
  timeoutMs: number;
  /** Nice value added to the child (default 5; 0 keeps the server's priority). */
  niceness?: number;
  /** Aborting stops the build (server shutdown). */
  signal?: AbortSignal;
  /** Keep the build alive to publish edits (an IPC channel; array commands only). */
  publisher?: boolean;
}

/** A build kept alive to publish edits into its release. */
export interface KeptPublisher {
  /** Sends a request; resolves with the reply carrying its id (or rejects if the build ends). */
  request(
    message: { type: 'publish' | 'render'; id: number } & Record<string, unknown>,
  ): Promise<unknown>;
  /** Whether it still runs. */
  alive(): boolean;
  /** Asks it to stop, then kills it if it lingers. */
  stop(): void;
}

export type BuildRunResult =
  | { ok: true; durationMs: number; publisher?: KeptPublisher }
  | {
      ok: false;
      durationMs: number;
      error: string;
      /** It failed on a cause that may pass (an upstream 5xx, a timeout): worth retrying. */
      transient: boolean;
    };

/** A stack line (`at async …build.ts:165:20`): says where, not why. */
const STACK_LINE = /^at\s|^\.\.\.\s*\d+\s+lines? matching/;

/** The last lines of the log that say something (for the failure's one-line cause). */
function lastLines(text: string, count: number): string {
  const lines = text
    .slice(-8192)
    // eslint-disable-next-line no-control-regex -- ANSI colour codes of the build's output
    .replace(/\u001b\[[0-9;]*[A-Za-z]/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !STACK_LINE.test(line) && line !== '}' && line !== '{');
  return lines.slice(-count).join(' | ');
}

export async function runBuild(run: BuildRun): Promise<BuildRunResult> {
  const started = performance.now();
  await mkdir(path.dirname(run.logFile), { recursive: true });
  const log = await open(run.logFile, 'a', 0o644);
  const env = { ...run.env, RELEASE_DIR: run.outDir };
  const child =
    'shell' in run.command
      ? spawn(run.command.shell, {
          shell: true,
          env,
          stdio: ['ignore', log.fd, log.fd],
          detached: true,
        })
      : spawn(run.command[0] ?? process.execPath, run.command.slice(1), {
          env,
          stdio: run.publisher ? ['ignore', log.fd, log.fd, 'ipc'] : ['ignore', log.fd, log.fd],
          detached: true,
        });
  const keep = run.publisher === true && !('shell' in run.command);
  const niceness = run.niceness ?? 5;
  if (child.pid !== undefined && niceness !== 0) {
    try {
      os.setPriority(child.pid, Math.min(19, os.getPriority(process.pid) + niceness));
    } catch {
      // Not permitted here: the build runs at the server's priority.
    }
  }
  /** Stops the build and what it started (its process group). */
  const stop = (signal: NodeJS.Signals) => {
    if (child.pid === undefined || child.exitCode !== null) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      child.kill(signal);
    }
  };
  // Why the build was stopped (set by the timers and the abort below).
  const stopped: { reason: string | null } = { reason: null };
  const stopWith = (reason: string) => {
    stopped.reason ??= reason;
    stop('SIGTERM');
    setTimeout(() => {
      stop('SIGKILL');
    }, 5_000).unref();
  };
  const timer = setTimeout(() => {
    stopWith(`timed out after ${Math.round(run.timeoutMs / 1000)} s`);
  }, run.timeoutMs);
  const onAbort = () => {
    stopWith('stopped (server shutting down)');
  };
  run.signal?.addEventListener('abort', onAbort, { once: true });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('error', (error) => {
      stopped.reason ??= `could not start: ${error.message}`;
      resolve({ code: null, signal: null });
    });
    child.once('exit', (code, signal) => {
      resolve({ code, signal });
    });
  });
  const ready = keep
    ? new Promise<'ready'>((resolve) => {
        const onMessage = (message: unknown) => {
          if ((message as { type?: unknown } | null)?.type !== 'publisher-ready') return;
          child.off('message', onMessage);
          resolve('ready');
        };
        child.on('message', onMessage);
      })
    : null;
  const exit = await (ready ? Promise.race([ready, exited]) : exited);
  clearTimeout(timer);
  if (exit === 'ready') {
    const durationMs = performance.now() - started;
    // Built: from now on its owner stops it (`stop()`), so a publish under way when the server
    // begins to stop may still finish within the stop's bound (src/server/shutdown.ts).
    run.signal?.removeEventListener('abort', onAbort);
    // The kept build still writes to the log.
    void exited.then(() => log.close());
    const channel: KeptChannel = {
      send: (message) => {
        sendOrDrop(child, message);
      },
      onMessage: (listener) => {
        child.on('message', listener);
      },
      exited,
    };
    return { ok: true, durationMs, publisher: keptPublisher(channel, stop) };
  }
  run.signal?.removeEventListener('abort', onAbort);
  await log.close();
  const durationMs = performance.now() - started;
  if (stopped.reason === null && exit.code === 0) return { ok: true, durationMs };
  const how =
    stopped.reason ?? (exit.signal ? `killed by ${exit.signal}` : `exit code ${String(exit.code)}`);
  const output = (await readFile(run.logFile, 'utf8').catch(() => '')).slice(-65_536);
  const cause = stopped.reason === null ? readFailureLine(output) : null;
  if (cause !== null) {
    return { ok: false, durationMs, error: cause.message, transient: cause.transient };
  }
  const tail = lastLines(output, 2);
  return {
    ok: false,
    durationMs,
    error: tail === '' ? how : `${how}: ${tail}`,
    // Past its time limit: an upstream too slow to build from, tried again later.
    transient: stopped.reason?.startsWith('timed out') === true,
  };
}

/** The IPC side of a kept build: what `keptPublisher` talks through. */
export interface KeptChannel {
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Settles when the build process ends. */
  exited: Promise<unknown>;
}

/**
 * A publisher over a kept build's channel (the supervisor's own build child, or the build
 * `npm start` made and handed over): requests matched to replies by id, all rejected when the
 * build ends; `kill` stops it when it does not leave on `stop`.
 */
export function keptPublisher(
  channel: KeptChannel,
  kill: (signal: NodeJS.Signals) => void,
): KeptPublisher {
  let running = true;
  const waiting = new Map<
    number,
    { resolve: (reply: unknown) => void; reject: (e: Error) => void }
  >();
  channel.onMessage((message: unknown) => {
    const id = (message as { id?: unknown } | null)?.id;
    if (typeof id !== 'number') return;
    waiting.get(id)?.resolve(message);
    waiting.delete(id);
  });
  void channel.exited.then(() => {
    running = false;
    for (const { reject } of waiting.values()) reject(new Error('the kept build ended'));
    waiting.clear();
  });
  return {
    alive: () => running,
    request(message) {
      if (!running) return Promise.reject(new Error('the kept build ended'));
      return new Promise((resolve, reject) => {
        waiting.set(message.id, { resolve, reject });
        channel.send(message);
      });
    },
    stop() {
      if (!running) return;
      channel.send({ type: 'stop' });
      setTimeout(() => {
        kill('SIGTERM');
      }, 10_000).unref();
    },
  };
}
