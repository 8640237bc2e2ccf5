/**
 * The server logger's lines, captured: `captureLog()` sends them to an array (parsed JSON, one
 * object per line) until `restore()`. The logger is the one of the process (the server script's
 * and the SSR bundle's copies share it), so an in-process server's lines land here too.
 */
import { useLogDestination } from '../../../src/shop/config/log.ts';

export interface LogLine {
  level: string;
  time: string;
  pid: number;
  msg: string;
  reqId?: string;
  [field: string]: unknown;
}

export function captureLog(): { lines: LogLine[]; restore: () => void } {
  const lines: LogLine[] = [];
  const restore = useLogDestination({
    write: (chunk: string) => {
      for (const line of chunk.split('\n')) {
        if (line !== '') lines.push(JSON.parse(line) as LogLine);
      }
    },
  });
  return { lines, restore };
}
