import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

/**
 * The machine a benchmark ran on, as the markdown lines BENCHMARKS.md records: core count,
 * memory (`free -h`), Node version, CPU model, the commit, load average at the start, and the date.
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
  ].join('\n');
}
