// `tradeledger gains` of two trees, alternated on one kept database: the paired figures behind a
// change to the gains run (issue 24, BENCHMARKS.md, session 18). Each round runs every rule set
// given once per tree (the order of the trees alternates from round to round), each as a child
// process under /usr/bin/time, with the PostgreSQL CPU of the database's backends sampled meanwhile;
// at the end the medians per rule set and tree, and whether both trees wrote the same gains.csv
// and summary.json (generatedAt aside).
//   BENCH_KEEP=1 GAINS_RUNNER_N=100000 npx tsx test/bench/gainsRunner.bench.ts   # prints the kept database's URL
//   git worktree add --detach /tmp/base <old rev> && (cd /tmp/base && ln -s /path/to/node_modules && npm run build)
//   npm run build && DATABASE_URL=<kept URL> BENCH_OLD_TREE=/tmp/base npx tsx test/bench/gainsPairs.bench.ts 6 uk fifo
// Both trees must be built (bin/tradeledger.js runs the sources through tsx when dist/ is older).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineInfo } from './support/machineInfo.js';
import { watchProcessCpu } from './support/watchProcessCpu.js';

const url = process.env.DATABASE_URL;
const oldTree = process.env.BENCH_OLD_TREE;
if (!url || !oldTree) throw new Error('set DATABASE_URL (a kept gainsRunner database) and BENCH_OLD_TREE (a built checkout of the old code)');
const db = new URL(url).pathname.slice(1);
const rounds = Number(process.argv[2] ?? 3);
const rules = process.argv.slice(3).length > 0 ? process.argv.slice(3) : ['uk', 'fifo'];
const trees: [string, string][] = [['old', oldTree], ['new', fileURLToPath(new URL('../..', import.meta.url))]];
const out = await mkdtemp(path.join(tmpdir(), 'gains-pairs-'));
console.log(machineInfo());

/** One `gains` run: wall s, the process's CPU s, PostgreSQL's CPU s. */
async function run(tree: string, rule: string, dir: string): Promise<[number, number, number]> {
  const pg = watchProcessCpu((cmd) => cmd.startsWith('postgres:') && cmd.includes(db));
  const t0 = process.hrtime.bigint();
  const child = spawn('/usr/bin/time', ['-f', '%U %S', process.execPath, 'bin/tradeledger.js', 'gains', '--year', '2024', '--rules', rule, '--fiat', 'GBP',
    '--tz', 'Europe/London', '--out', dir, '--force'], { cwd: tree, env: { ...process.env, DATABASE_URL: url } });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  child.stdout.resume();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const pgS = pg.stop();
  if (code !== 0) throw new Error(`gains --rules ${rule} in ${tree} exited ${code}: ${stderr.slice(-2000)}`);
  const [user, system] = stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
  return [wall, user! + system!, pgS];
}

try {
  const results: Record<string, [number, number, number][]> = {};
  for (let i = 0; i < rounds; i++) {
    for (const rule of rules) {
      for (const [name, tree] of i % 2 === 0 ? trees : [...trees].reverse()) {
        const r = await run(tree, rule, path.join(out, `${rule}-${name}`));
        (results[`${rule} ${name}`] ??= []).push(r);
        console.log(`${rule} ${name}: wall ${r[0].toFixed(2)} s, gains process ${r[1].toFixed(2)} s, PostgreSQL ${r[2].toFixed(2)} s (load ${(await readFile('/proc/loadavg', 'utf8')).split(' ')[0]})`);
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`\n| rules | tree | wall s | gains process CPU s | PostgreSQL CPU s |\n|---|---|---:|---:|---:|`);
  for (const [key, rs] of Object.entries(results)) {
    const [rule, name] = key.split(' ');
    console.log(`| ${rule} | ${name} | ${median(rs.map((r) => r[0])).toFixed(2)} | ${median(rs.map((r) => r[1])).toFixed(2)} | ${median(rs.map((r) => r[2])).toFixed(2)} |`);
  }
  for (const rule of rules) {
    const read = async (name: string, file: string) => (await readFile(path.join(out, `${rule}-${name}`, file), 'utf8')).replace(/"generatedAt": "[^"]*"/, '');
    const same = (await read('old', 'gains.csv')) === (await read('new', 'gains.csv')) && (await read('old', 'summary.json')) === (await read('new', 'summary.json'));
    console.log(`${rule}: gains.csv and summary.json ${same ? 'equal' : 'DIFFERENT'} in the last round`);
  }
} finally {
  await rm(out, { recursive: true, force: true });
}
