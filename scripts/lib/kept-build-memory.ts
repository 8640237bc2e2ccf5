/**
 * The kept build's memory, for `npm run bench:rebuild`: resident and peak (MB) of the
 * `astro-build-child` process under the shop's process, read from `/proc` (Linux).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Resident and peak memory (MB) of the kept build: `astro-build-child` under `root`. */
export function keptBuildMemory(
  root: number,
): { pid: number; rssMb: number; peakMb: number } | null {
  const parents = new Map<number, number>();
  const commands = new Map<number, string>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces and parentheses.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(name), ppid);
      commands.set(Number(name), readFileSync(`/proc/${name}/cmdline`, 'utf8'));
    } catch {
      // gone meanwhile
    }
  }
  const under = (pid: number): boolean => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) {
      if (at === root) return true;
    }
    return false;
  };
  for (const [pid, command] of commands) {
    if (!command.includes('astro-build-child') || !under(pid)) continue;
    try {
      const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
      const kb = (field: string) =>
        Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
      return { pid, rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
    } catch {
      return null;
    }
  }
  return null;
}
