// Times COPY (query) TO STDOUT for each query given, by wall clock and by the CPU seconds of the
// PostgreSQL backend that ran it (/proc/PID/stat, so the database must be on this machine). On a
// shared, loaded machine wall time mostly measures the wait for a core; backend CPU time pairs
// two queries more fairly. Run by hand against a database kept by valuation.bench.ts:
//
//   BENCH_KEEP=1 npx tsx test/bench/valuation.bench.ts        # prints "kept postgres://..."
//   PGURL=postgres://... ROUNDS=2 npx tsx test/bench/copyCpu.bench.ts "SELECT * FROM ledger" "SELECT * FROM ledger_valued('USD')"
//   PRE="SET jit = off" ...                                   # a statement run before each query
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { processCpuSeconds } from './support/processCpu.js';

const url = process.env.PGURL;
if (!url) throw new Error('set PGURL to the database to query');
const queries = process.argv.slice(2);
for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round++) {
  for (const query of queries) {
    const client = new pg.Client({ connectionString: url, application_name: 'tradeledger bench' });
    await client.connect();
    try {
      if (process.env.PRE) await client.query(process.env.PRE);
      const pid = Number((await client.query('SELECT pg_backend_pid() AS p')).rows[0].p);
      const cpu0 = processCpuSeconds(pid);
      const t0 = performance.now();
      let bytes = 0;
      const stream = client.query(copyTo(`COPY (${query}) TO STDOUT`));
      await pipeline(stream, new Writable({ write(chunk: Buffer, _e, done) { bytes += chunk.length; done(); } }));
      const wall = (performance.now() - t0) / 1000;
      const label = query.replace(/\s+/g, ' ').slice(0, 70);
      console.log(`${wall.toFixed(2)} s wall, ${(processCpuSeconds(pid) - cpu0).toFixed(2)} s backend CPU, ${bytes} bytes: ${label}`);
    } finally {
      await client.end();
    }
  }
}
