import { readdirSync, readFileSync } from 'node:fs';

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
  const ticks = new Map<number, number>();
  const sample = () => {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
        const leader = /parallel worker for PID (\d+)/.exec(cmd)?.[1];
        if (!match(cmd) && !(leader !== undefined && ticks.has(Number(leader)))) continue;
        // Fields after the ")" that closes the command name: utime and stime are the 12th and 13th.
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]));
      } catch {
        // The process ended between listing and reading.
      }
    }
  };
  const timer = setInterval(sample, 500);
  sample();
  return {
    /** The process ids seen so far (for `perf report --pid`). */
    pids: () => [...ticks.keys()],
    stop: () => {
      sample();
      clearInterval(timer);
      return [...ticks.values()].reduce((a, b) => a + b, 0) / 100;
    },
  };
}
