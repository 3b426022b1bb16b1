// Measurement for docs/scaling.md (issue 15): how many bytes PostgreSQL holds per synced record,
// table by table (heap, TOAST and indexes: pg_total_relation_size), after a full first sync of
// the sandbox at scale small (about 5,000 records per account over two years). Run by hand:
//
//   npx tsx test/bench/storagePerAccount.bench.ts
//   BENCH_SCALE=medium npx tsx test/bench/storagePerAccount.bench.ts
import { sql } from 'kysely';
import { DAY_MS } from '../../src/api/endpoints.js';
import { sandboxAccounts } from '../../src/cli/config/sandboxAccounts.js';
import { createDb } from '../../src/db/createDb.js';
import { runSync } from '../../src/extract/runSync.js';
import { historyStreams } from '../../src/extract/streamRegistry.js';
import { startSandbox } from '../../src/sandbox/startSandbox.js';
import { machineInfo } from './support/machineInfo.js';
import { markdownTable } from './support/markdownTable.js';
import { scratchDatabase } from './support/scratchDatabase.js';

const scale = process.env.BENCH_SCALE ?? 'small';
console.log(machineInfo());
const sandbox = await startSandbox({ port: 0, seed: 1, scale, rateLimit: false });
const scratch = await scratchDatabase('storage');
const db = createDb(scratch.url, { name: 'bench', maxConnections: 12 });
try {
  const accounts = sandboxAccounts(sandbox.accounts);
  const result = await runSync({
    db, baseUrl: sandbox.baseUrl, accounts,
    sync: {
      streams: undefined, since: sandbox.world.now() - 731 * DAY_MS, historyDays: 730, safetyLagMs: 0, lookbackDays: 7,
      horizonMarginMs: 300_000, windowDays: {}, concurrency: 8, parallelWindows: 4, symbols: undefined,
    },
    client: { safetyFactor: 0.95, maxRetries: 6, retryBaseMs: 50, timeoutMs: 15_000, rateLimit: false, maxClockSkewMs: 60_000 },
    emit: () => undefined,
  });
  await sql`VACUUM ANALYZE`.execute(db);
  const rows: (string | number)[][] = [];
  let records = 0;
  let bytes = 0;
  for (const table of [...historyStreams.map((s) => s.table), 'fees']) {
    const { rows: [r] } = await sql<{ n: string; b: string }>`SELECT (SELECT count(*) FROM ${sql.table(table)})::text AS n, pg_total_relation_size(${table}::regclass)::text AS b`.execute(db);
    const n = Number(r!.n);
    const b = Number(r!.b);
    if (table !== 'fees') records += n;
    bytes += b;
    if (n > 0) rows.push([table, n, Math.round(b / 1024), Math.round(b / n)]);
  }
  const { rows: [all] } = await sql<{ b: string }>`SELECT pg_database_size(current_database())::text AS b`.execute(db);
  console.log(`- sandbox scale ${scale}, ${accounts.length} accounts, sync ${result.status}\n`);
  console.log(markdownTable(['table', 'rows', 'KiB (heap+toast+indexes)', 'bytes/row'], rows));
  console.log(`\nhistory records ${records}; their tables (with fees) ${(bytes / 1048576).toFixed(1)} MiB = ${Math.round(bytes / records)} bytes per record; whole database ${(Number(all!.b) / 1048576).toFixed(1)} MiB`);
} finally {
  await db.destroy();
  await scratch.drop();
  await sandbox.close();
}
