// The CPU one PostgreSQL backend spends on each of a list of statements, run in order on one
// connection, N rounds: for pairing a query's old and new form on one database (issue 24, session
// 12: has_unused_sign and is_own_account_movement inlined, JIT on and off). The server must run
// on this machine (the backend's CPU is read from /proc). Parallel workers are turned off so that
// no work leaves the measured process. copyCpu.bench.ts times single queries by COPY, each on a
// fresh connection; this one keeps one connection, so a statement can change what the next sees
// (SET, or an old function body restored inside a transaction that is rolled back).
//
//   npx tsx test/bench/statementCpu.bench.ts <database url> <file> [rounds]
//
// The file holds statements, each after a line `-- @name` (a statement may hold several commands,
// e.g. a CREATE OR REPLACE of the old form inside BEGIN ... ROLLBACK as separate entries). Per
// statement it prints the name, the backend's CPU-seconds and the first row of the last result.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { processCpuSeconds } from './support/processCpu.js';

const [url, file, rounds = '1'] = process.argv.slice(2);
if (!url || !file) throw new Error('usage: npx tsx test/bench/statementCpu.bench.ts <database url> <file of "-- @name" + statement> [rounds]');
const entries = readFileSync(file, 'utf8').split(/^-- @/m).filter((s) => s.trim() !== '')
  .map((s) => ({ name: s.slice(0, s.indexOf('\n')).trim(), text: s.slice(s.indexOf('\n') + 1) }));
const client = new pg.Client({ connectionString: url });
await client.connect();
try {
  const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  await client.query('SET max_parallel_workers_per_gather = 0');
  const cpu = () => processCpuSeconds(pid);
  console.log(`- ${new Date().toISOString()}, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  for (let round = 1; round <= Number(rounds); round++) {
    for (const { name, text } of entries) {
      const before = cpu();
      const result = (await client.query(text)) as pg.QueryResult | pg.QueryResult[];
      const seconds = cpu() - before;
      const last = Array.isArray(result) ? result[result.length - 1] : result;
      console.log(`${round}\t${name}\t${seconds.toFixed(2)} CPU-s\t${JSON.stringify(last?.rows?.[0] ?? null)}`);
    }
  }
} finally {
  await client.end();
}
