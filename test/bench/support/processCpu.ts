import { readFileSync } from 'node:fs';

/**
 * A process's CPU time so far (user + system, seconds) from /proc: the benches' one reader of it
 * (this machine's processes only; Linux). Throws when the process is gone.
 *
 * @example
 * const before = processCpuSeconds(backendPid); await client.query(text); const spent = processCpuSeconds(backendPid) - before;
 */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the ")" that closes the command name: utime and stime are the 12th and 13th, in
  // clock ticks (USER_HZ, 100 a second).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
