// `tradeledger import transactions` at scale (issue 23 item 5, issue 24 item 5): a generated
// Koinly universal CSV of N lines (default 1,000,000) imported through the CLI as a child process
// under /usr/bin/time -v, into a scratch database on the 5432 service. Prints lines/s (wall),
// the import process's CPU and peak RSS, PostgreSQL's CPU, and then imports the same file again
// (every line skipped: the content-identity path) and a re-saved copy (CRLF, a trailing blank line).
//   npx tsx test/bench/importScale.bench.ts                 # N = 1,000,000
//   IMPORT_SCALE_N=100000 npx tsx test/bench/importScale.bench.ts
// Heavy (a ~130 MB file, ~1 GB of database): run it alone, when the machine is quiet.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { machineInfo } from './support/machineInfo.js';
import { markdownTable } from './support/markdownTable.js';
import { scratchDatabase } from './support/scratchDatabase.js';
import { watchProcessCpu } from './support/watchProcessCpu.js';

const N = Number(process.env.IMPORT_SCALE_N ?? 1_000_000);
const HEADER = 'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash';
const START = Date.parse('2020-01-01T00:00:00Z');

/** Writes N deterministic lines (trades, deposits, withdrawals with fees and zeros) without holding them. */
async function writeKoinly(file: string, eol: string, trailingBlank: boolean): Promise<void> {
  const out = createWriteStream(file);
  const pad = (n: number) => String(n).padStart(2, '0');
  const coins = ['BTC', 'ETH', 'SOL', 'ADA', 'DOT', 'USDT', 'USDC', 'XRP'];
  let buf = `${HEADER}${eol}`;
  for (let i = 0; i < N; i++) {
    const d = new Date(START + i * 60_000);
    const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
    const a = coins[i % coins.length]!;
    const b = coins[(i + 3) % coins.length]!;
    const q = `${(i % 997) + 1}.${String(i % 100_000).padStart(5, '0')}`;
    const kind = i % 4;
    buf += kind === 0 ? `${date},${q},${a},${(i % 89) + 1}.25,${b},0.0001,${a},${(i % 5000) + 10}.5,USD,,trade ${i},0x${i.toString(16)}`
      : kind === 1 ? `${date},,,${q},${a},0,${a},,,,deposit ${i},0x${i.toString(16)}`
        : kind === 2 ? `${date},${q},${a},0,USD,0.001,${a},,,,withdrawal ${i},`
          : `${date},,,${q},${b},,,${(i % 300) + 1},EUR,reward,,`;
    buf += eol;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  if (trailingBlank) buf += eol;
  out.end(buf);
  await once(out, 'finish');
}

interface Timed { code: number; wallS: number; cpuS: number; rssMb: number; stdout: string; stderr: string }

async function timed(args: string[], env: NodeJS.ProcessEnv): Promise<Timed> {
  const t0 = process.hrtime.bigint();
  const child = spawn('/usr/bin/time', ['-v', process.execPath, 'bin/tradeledger.js', ...args], { env: { ...process.env, ...env } });
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
const dir = await mkdtemp(path.join(tmpdir(), 'import-scale-'));
const scratch = await scratchDatabase('importscale');
try {
  const file = path.join(dir, 'koinly.csv');
  const resaved = path.join(dir, 'koinly-resaved.csv');
  await writeKoinly(file, '\n', false);
  await writeKoinly(resaved, '\r\n', true);
  console.log(`file: ${N} lines, ${((await stat(file)).size / 1e6).toFixed(0)} MB`);
  const env = { DATABASE_URL: scratch.url };
  const dbName = new URL(scratch.url).pathname.slice(1);
  const rows: (string | number)[][] = [];
  for (const [label, p, wallet] of [
    ['import (all new)', file, 'bench'],
    ['same file again (already imported)', file, 'bench'],
    ['re-saved copy, CRLF + blank line (all skipped)', resaved, 'bench'],
  ] as const) {
    const pg = watchProcessCpu((cmd) => cmd.startsWith('postgres:') && cmd.includes(dbName));
    const r = await timed(['import', 'transactions', p, '--wallet', wallet], env);
    const pgS = pg.stop();
    if (r.code !== 0) throw new Error(`${label} exited ${r.code}: ${r.stderr.slice(-2000)}`);
    console.log(`${label}: ${r.stdout.trim()}`);
    rows.push([label, N, Number(r.wallS.toFixed(1)), Math.round(N / r.wallS), Number(r.cpuS.toFixed(1)), Number(pgS.toFixed(1)), Math.round(r.rssMb)]);
  }
  console.log(`\n### import transactions, ${N} Koinly lines\n`);
  console.log(markdownTable(['run', 'lines', 'wall s', 'lines/s (wall)', 'import process CPU s', 'PostgreSQL CPU s', 'peak RSS MB (import process)'], rows));
  console.log(`load average at end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
} finally {
  await scratch.drop();
  await rm(dir, { recursive: true, force: true });
}
