import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

/**
 * CPU milliseconds of a fixed piece of work like the tool's own (objects allocated and dropped,
 * JSON written and read, decimal text cut into numbers), the least of three rounds. Two VMs of
 * the same core count differed about 3.5x in the same benchmark's CPU, and one VM gave 737 and
 * 1,311-1,353 ms a few minutes apart while idle (issue 24, BENCHMARKS.md, session 20): absolute
 * figures compare, across sessions or within one, only beside this.
 */
export function machineYardstick(): number {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const t = process.cpuUsage();
    let check = 0;
    const kept: { id: string; amount: string; n: number }[] = [];
    for (let i = 0; i < 300_000; i++) {
      const row = { id: `r${i}`, amount: `${i % 9973}.${String(i % 1000).padStart(3, '0')}`, n: i };
      if (i % 16 === 0) kept.push(row);
      const text = JSON.stringify(row);
      const back = JSON.parse(text) as { amount: string };
      const [whole, frac] = back.amount.split('.');
      check += Number(whole) + Number(frac);
    }
    const u = process.cpuUsage(t);
    if (check + kept.length < 0) throw new Error('unreachable');
    best = Math.min(best, (u.user + u.system) / 1000);
  }
  return Math.round(best);
}

/**
 * The machine a benchmark ran on, as the markdown lines BENCHMARKS.md records: core count,
 * memory (`free -h`), Node version, CPU model, the commit, load average at the start, the date,
 * and {@link machineYardstick}.
 *
 * @example
 * console.log(machineInfo());
 */
export function machineInfo(): string {
  const model = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model ?? 'unknown';
  const mem = execFileSync('free', ['-h'], { encoding: 'utf8' }).split('\n').find((l) => l.startsWith('Mem:'))?.split(/\s+/) ?? [];
  const nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  const commit = execFileSync('git', ['log', '-1', '--format=%h %s'], { encoding: 'utf8' }).trim();
  return [
    `- date: ${new Date().toISOString()}`,
    `- machine: nproc ${nproc}, CPU ${model}, memory ${mem[1] ?? '?'} total / ${mem[6] ?? '?'} available (free -h), node ${process.version}`,
    `- code: ${commit}`,
    `- load average at start (1/5/15 min): ${loadavg().map((l) => l.toFixed(2)).join(' / ')} (the machine is shared with other work)`,
    `- yardstick: ${machineYardstick()} ms CPU (machineYardstick(): a fixed piece of work; lower is faster)`,
  ].join('\n');
}
