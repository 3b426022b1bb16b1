// The gains runner end to end, through the CLI as a user runs it: `tradeledger import transactions`
// of a Koinly file with N disposals (and N acquisitions) across 50 assets, then `tradeledger gains
// --rules uk` over it. Where gains.bench.ts measures the matching engine alone, this adds what the
// runner does around it: ledger_valued read through a cursor, rows parsed, matches and lots written
// back to PostgreSQL (gains_* tables) and the report files. Each command runs as a child process
// under /usr/bin/time -v (its peak RSS); PostgreSQL is the 5432 service, a scratch database.
//   npx tsx test/bench/gainsRunner.bench.ts                 # N = 100,000
//   GAINS_RUNNER_N=20000 npx tsx test/bench/gainsRunner.bench.ts
//   BENCH_KEEP=1 ...                     # keep the scratch database, print its URL
//   BENCH_CPU_PROF=/tmp/prof npx tsx test/bench/gainsRunner.bench.ts   # a V8 CPU profile per command
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { machineInfo } from './support/machineInfo.js';
import { markdownTable } from './support/markdownTable.js';
import { scratchDatabase } from './support/scratchDatabase.js';
import { watchProcessCpu } from './support/watchProcessCpu.js';

const N = Number(process.env.GAINS_RUNNER_N ?? 100_000);
const ASSETS = 50;
const START = Date.parse('2024-04-06T00:00:00Z');
const STEP_MS = Math.floor((365 * 86_400_000) / (2 * N + 2)); // every event inside one UK tax year
/** When the i-th purchase and the i-th sale happen. */
const buyMs = (i: number) => START + (2 * i + 1) * STEP_MS;
const saleMs = (i: number) => buyMs(i) + STEP_MS;

// Deterministic lines: per step one purchase of 1.2 or 0.8 units for GBP and one sale of 1 unit
// for GBP, prices cycling; every asset starts with 100 units bought on 1 January 2024.
function koinlyFile(): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = (ms: number) => { const d = new Date(ms); return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`; };
  const lines = ['Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash'];
  for (let a = 0; a < ASSETS; a++) lines.push(`2024-01-01 00:${pad(a)} UTC,1000,GBP,100,TOK${a},,,,,,,`);
  for (let i = 0; i < N; i++) {
    const t = buyMs(i);
    const a = i % ASSETS;
    const k = (i * 7919) % 1000;
    const q = Math.floor(i / ASSETS) % 2 === 0 ? '1.2' : '0.8';
    // Minutes are the file's resolution: two lines of one asset in one minute would be duplicates,
    // so the description makes each line its own.
    // Prices in integer thousandths of a pound (no float arithmetic on money): a unit costs
    // 10.00 + k/100 and sells for 10.50 + k/100.
    lines.push(`${date(t)},${decimal((1000 + k) * (q === '1.2' ? 12 : 8), 3)},GBP,${q},TOK${a},,,,,,buy ${i},`);
    lines.push(`${date(saleMs(i))},1,TOK${a},${decimal(1050 + k, 2)},GBP,,,,,,sell ${i},`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * How many of the file's sales fall in [fromMs, toMs): the rates are of the sales a run's tax year
 * holds. The UK year 2024 (6 April 2024 to 6 April 2025, Europe/London: 2024-04-05T23:00Z to
 * 2025-04-05T23:00Z) holds nearly all N; `fifo`'s is the calendar year 2024 (midnight in London is
 * midnight UTC in January), about three quarters of them.
 */
function salesIn(fromMs: number, toMs: number): number {
  let n = 0;
  for (let i = 0; i < N; i++) {
    const t = saleMs(i);
    if (t >= fromMs && t < toMs) n++;
  }
  return n;
}
const UK_YEAR = salesIn(Date.parse('2024-04-05T23:00:00Z'), Date.parse('2025-04-05T23:00:00Z'));
const CALENDAR_YEAR = salesIn(Date.parse('2024-01-01T00:00:00Z'), Date.parse('2025-01-01T00:00:00Z'));

/** An integer count of 10^-places units as a decimal string: decimal(12345, 3) = '12.345'. */
function decimal(units: number, places: number): string {
  const text = String(units).padStart(places + 1, '0');
  return `${text.slice(0, -places)}.${text.slice(-places)}`;
}

interface Timed { code: number; wallS: number; cpuS: number; rssMb: number; stdout: string; stderr: string }

/** Runs the CLI as a child (asynchronously, so the PostgreSQL CPU sampler keeps sampling). */
async function timed(args: string[], env: NodeJS.ProcessEnv): Promise<Timed> {
  const t0 = process.hrtime.bigint();
  // BENCH_CPU_PROF=DIR: each command writes a V8 CPU profile there (node --cpu-prof).
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn('/usr/bin/time', ['-v', process.execPath, ...prof, 'bin/tradeledger.js', ...args], { env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
  const num = (re: RegExp) => Number(re.exec(stderr)?.[1] ?? NaN);
  return {
    code, wallS, cpuS: num(/User time \(seconds\): ([\d.]+)/) + num(/System time \(seconds\): ([\d.]+)/),
    rssMb: num(/Maximum resident set size \(kbytes\): (\d+)/) / 1024, stdout, stderr,
  };
}

console.log(machineInfo());
const dir = await mkdtemp(path.join(tmpdir(), 'gains-runner-'));
const scratch = await scratchDatabase('gainsrunner');
try {
  const file = path.join(dir, 'wallet.csv');
  await writeFile(file, koinlyFile());
  const env = { DATABASE_URL: scratch.url };
  const dbName = new URL(scratch.url).pathname.slice(1);
  const rows: (string | number)[][] = [];
  const walls: number[] = [];
  for (const [label, args, sales] of [
    ['import transactions', ['import', 'transactions', file, '--wallet', 'bench'], 0],
    ['gains --rules uk', ['gains', '--year', '2024', '--rules', 'uk', '--fiat', 'GBP', '--tz', 'Europe/London', '--out', path.join(dir, 'uk')], UK_YEAR],
    ['gains --rules fifo', ['gains', '--year', '2024', '--rules', 'fifo', '--fiat', 'GBP', '--tz', 'Europe/London', '--out', path.join(dir, 'fifo')], CALENDAR_YEAR],
  ] as const) {
    const pg = watchProcessCpu((cmd) => cmd.startsWith('postgres:') && cmd.includes(dbName));
    const r = await timed([...args], env);
    const pgS = pg.stop();
    if (r.code !== 0) throw new Error(`${label} exited ${r.code}: ${r.stderr.slice(-2000)}`);
    // The run's own count: the UK rules count one disposal per asset and day (the same-day rule,
    // docs/gains.md, HMRC CRYPTO22252), so `uk` reports far fewer than the sales it matched; the
    // rates are of the sales in the run's tax year (salesIn).
    const disposals = /: (\d+) disposals/.exec(r.stdout)?.[1];
    if (process.env.BENCH_VERBOSE) console.log(r.stdout);
    walls.push(r.wallS);
    rows.push([label, sales || '', disposals ?? '', Number(r.wallS.toFixed(1)), sales ? Math.round(sales / r.wallS) : '', Number(r.cpuS.toFixed(1)), Number(pgS.toFixed(1)), Math.round(r.rssMb)]);
  }
  console.log(`\n### gains runner, ${N} disposals + ${N} acquisitions across ${ASSETS} assets (one UK tax year)\n`);
  console.log(markdownTable(['command', 'sales in its tax year', 'disposals (as the rules count them)', 'wall s', 'sales/s (wall)', 'process CPU s', 'PostgreSQL CPU s', 'peak RSS MB'], rows));
  // Issue 24's figure: the import and then the gains run, the run's sales over both walls.
  console.log(`\nend to end (import, then gains): uk ${Math.round(UK_YEAR / (walls[0]! + walls[1]!))}/s, fifo ${Math.round(CALENDAR_YEAR / (walls[0]! + walls[2]!))}/s (target >= 30,000/s)`);
} finally {
  // BENCH_KEEP=1 keeps the scratch database (for EXPLAIN ANALYZE of the runner's statements).
  if (process.env.BENCH_KEEP) console.log(`kept: ${scratch.url}`);
  else await scratch.drop();
  await rm(dir, { recursive: true, force: true });
}
