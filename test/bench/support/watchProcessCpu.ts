import { readdirSync, readFileSync } from 'node:fs';
import { processCpuSeconds } from './processCpu.js';

/**
 * Adds up the CPU time (user + system) of every process whose command line matches, sampling
 * /proc twice a second so that short-lived processes (PostgreSQL backends of one sync run) are
 * counted up to their last sample. PostgreSQL's parallel workers of a matched backend count too:
 * their process title ("parallel worker for PID N") names the leader, not the database. Linux only.
 *
 * @example
 * const pgCpu = watchProcessCpu((cmd) => cmd.includes(databaseName));
 * // ... run the sync ...
 * const seconds = pgCpu.stop();
 */
export function watchProcessCpu(match: (cmdline: string) => boolean): { stop: () => number; pids: () => number[] } {
  const seconds = new Map<number, number>(); // CPU seconds per process id
  const sample = () => {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
        const leader = /parallel worker for PID (\d+)/.exec(cmd)?.[1];
        if (!match(cmd) && !(leader !== undefined && seconds.has(Number(leader)))) continue;
        seconds.set(Number(entry), processCpuSeconds(Number(entry)));
      } catch {
        // The process ended between listing and reading.
      }
    }
  };
  const timer = setInterval(sample, 500);
  sample();
  return {
    /** The process ids seen so far (for `perf report --pid`). */
    pids: () => [...seconds.keys()],
    stop: () => {
      sample();
      clearInterval(timer);
      return [...seconds.values()].reduce((a, b) => a + b, 0);
    },
  };
}
