import { spawn, type ChildProcess } from 'node:child_process';

/** A child whose standard output is echoed here and kept (up to 1 MB). */
export interface CapturedChild {
  child: ChildProcess;
  /** What it printed so far. */
  stdout: () => string;
  /** Its exit code (1 when a signal ended it). */
  exited: Promise<number>;
}

/** Starts a command, echoing and keeping its standard output; `ipc` adds an IPC channel. */
export function spawnCaptured(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; ipc?: boolean } = {},
): CapturedChild {
  const child = spawn(command, args, {
    env: options.env ?? process.env,
    stdio: options.ipc ? ['ignore', 'pipe', 'inherit', 'ipc'] : ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    if (stdout.length < 1_000_000) stdout += text;
    process.stdout.write(text);
  });
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      resolve(code ?? (signal ? 1 : 0));
    });
  });
  return { child, stdout: () => stdout, exited };
}

/** Runs a command, inheriting stdio; resolves with its exit code. */
export async function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; capture?: boolean } = {},
): Promise<{ code: number; stdout: string }> {
  if (!options.capture) {
    const child = spawn(command, args, { env: options.env ?? process.env, stdio: 'inherit' });
    const code = await new Promise<number>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (exitCode, signal) => {
        resolve(exitCode ?? (signal ? 1 : 0));
      });
    });
    return { code, stdout: '' };
  }
  const captured = spawnCaptured(command, args, options.env ? { env: options.env } : {});
  const code = await captured.exited;
  return { code, stdout: captured.stdout() };
}
