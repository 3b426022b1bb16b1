// Issue 14 ("Speed"): what PostgreSQL spends on the sync's batch upserts, without the sync and
// the sandbox in the way. Replays batch statements captured from a real sync (see
// support/captureStatements.mjs) on ONE connection into a fresh scratch database per variant, and
// reads that backend's CPU seconds from /proc (the server must run on this machine). Variants run
// alternately, BENCH_REPEAT times each, so a noisy neighbour hits them alike.
//
//   # 1. capture (about 330k records, 90 MB of NDJSON):
//   BENCH_NODE_ARGS="--import=file://$PWD/test/bench/support/captureStatements.mjs?out=/tmp/batches.ndjson" \
//     BENCH_RECORDS=150000 npx tsx test/bench/syncThroughput.bench.ts
//   # 2. replay:
//   BENCH_BATCHES=/tmp/batches.ndjson BENCH_VARIANTS=base,named,localeC BENCH_REPEAT=2 npx tsx test/bench/upsertReplay.bench.ts
//
// Variants:
//   base         the statements as captured (unnamed, as the sync sent them before issue 14), schema up to sql/migrations/0050_ledger_fee_time.sql
//   named        the same as prepared statements (one name per distinct text)
//   localeC      base, in a database whose default collation is C (an upper bound for COLLATE "C")
//   collateC     base, schema with every sql/ migration of this checkout (0051: key columns COLLATE "C")
//   insertFirst  base, but each batch is first tried as a plain INSERT (no ON CONFLICT, so one
//                B-tree descent per row instead of two); a duplicate key falls back to the upsert
//   jsonText     base, but the batch's two arrays are read as json and each element cast to jsonb
//                once (json_array_elements(...)::jsonb), instead of the whole array parsed into
//                one jsonb and each element copied out of it (jsonb_array_elements)
// BENCH_BASE_SQL (default /work/main/sql, else this checkout's sql/ without 0051) is the schema of
// every variant but collateC.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '../../src/db/migrate.js';
import { withDefaultUser } from '../../src/db/withDefaultUser.js';
import { machineInfo } from './support/machineInfo.js';
import { markdownTable } from './support/markdownTable.js';
import { processCpuSeconds } from './support/processCpu.js';

interface Captured { text: string; values: unknown[] }

const file = process.env.BENCH_BATCHES;
if (!file || !existsSync(file)) throw new Error('upsertReplay: set BENCH_BATCHES to an NDJSON file from support/captureStatements.mjs (see the header of this file)');
const variants = (process.env.BENCH_VARIANTS ?? 'base,named').split(',');
const repeat = Number(process.env.BENCH_REPEAT ?? '2');
// A variant is `base` or a `+`-joined set of the others, e.g. `localeC+insertFirst`.
const known = ['named', 'localeC', 'collateC', 'insertFirst', 'jsonText'];
for (const v of variants) {
  for (const part of v.split('+')) if (v !== 'base' && !known.includes(part)) throw new Error(`upsertReplay: unknown variant "${part}" in "${v}"; use base or a +-joined set of ${known.join(', ')}`);
}

const batches: Captured[] = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Captured);
const rowsIn = (b: Captured) => {
  const raws = /ROWS FROM \(jsonb_array_elements\(\$(\d+)::jsonb\)/.exec(b.text);
  return raws ? (JSON.parse(String(b.values[Number(raws[1]) - 1])) as unknown[]).length : 0;
};
const records = batches.reduce((n, b) => n + rowsIn(b), 0);
// Price candles travel as text arrays, one request's page per statement ($3 holds the times):
// once as JS arrays, now as PostgreSQL array literals ('{"1795680000000","1795683600000"}').
const elements = (v: unknown) => (Array.isArray(v) ? v.length : String(v) === '{}' ? 0 : String(v).split('","').length);
const candles = batches.reduce((n, b) => n + (b.text.includes('INSERT INTO price_candles') ? elements(b.values[2]) : 0), 0);

const adminUrl = withDefaultUser(process.env.BENCH_DATABASE_URL ?? 'postgres://127.0.0.1:5432/test');
const ownSql = new URL('../../sql/migrations/', import.meta.url).pathname;
const baseSql = process.env.BENCH_BASE_SQL ?? (existsSync('/work/main/sql/migrations') ? '/work/main/sql/migrations' : withoutIssue14(ownSql));

function withoutIssue14(dir: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'tl-sql-'));
  for (const f of readdirSync(dir)) if (f.endsWith('.sql') && f < '0051') copyFileSync(join(dir, f), join(copy, f));
  return copy;
}

async function admin(text: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try { await c.query(text); } finally { await c.end(); }
}

// The upsert without its ON CONFLICT clauses: a plain INSERT of the batch (and of its fee rows).
function plainInsert(text: string): string {
  return text
    .replace(/ON CONFLICT \([^)]*\) DO UPDATE SET [\s\S]*?WHERE t\.raw IS DISTINCT FROM EXCLUDED\.raw OR t\.problems IS DISTINCT FROM EXCLUDED\.problems\s*RETURNING/, 'RETURNING')
    .replace(/ON CONFLICT \(account_uid, source, source_id, seq\) DO UPDATE SET [\s\S]*?c_time = EXCLUDED\.c_time\)/, ')');
}

// The batch read as json, each element cast to jsonb once: OFFSET 0 keeps the subquery from being
// pulled up, which would repeat the cast in every column that reads r or o.
function jsonText(text: string): string {
  return text.replace(/ROWS FROM \(jsonb_array_elements\((\$\d+)::jsonb\), jsonb_array_elements\((\$\d+)::jsonb\)\) AS x\(r, o\)/g,
    'ROWS FROM (json_array_elements($1::json), json_array_elements($2::json)) AS x0(rj, oj) CROSS JOIN LATERAL (SELECT rj::jsonb AS r, oj::jsonb AS o OFFSET 0) AS x');
}

const nameOf = (text: string) => `r_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;

async function runVariant(variant: string): Promise<(string | number)[]> {
  const name = `tl_bench_replay_${randomBytes(4).toString('hex')}`;
  const has = (part: string) => variant.split('+').includes(part);
  await admin(`CREATE DATABASE "${name}"${has('localeC') ? ` TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C.UTF-8'` : ''}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  try {
    await migrate(u.toString(), { dir: has('collateC') ? ownSql : baseSql });
    const client = new pg.Client({ connectionString: u.toString() });
    await client.connect();
    try {
      await client.query('SET synchronous_commit = off');
      const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      if (process.env.BENCH_PG_PIDS === '1') console.log(`${variant}: backend pid ${pid}`);
      const named = has('named');
      const insertFirst = has('insertFirst');
      const rewrite = has('jsonText') ? jsonText : (text: string) => text;
      let fallbacks = 0;
      const cpu0 = processCpuSeconds(pid);
      const t0 = performance.now();
      let candleCpuS = 0;
      for (const b of batches) {
        if (b.text.includes('INSERT INTO price_candles')) {
          const c0 = processCpuSeconds(pid);
          await client.query(named ? { name: nameOf(b.text), text: b.text, values: b.values } : { text: b.text, values: b.values });
          candleCpuS += processCpuSeconds(pid) - c0;
          continue;
        }
        if (insertFirst && b.text.includes('ROWS FROM')) {
          const text = rewrite(plainInsert(b.text));
          try {
            await client.query(named ? { name: nameOf(text), text, values: b.values } : { text, values: b.values });
            continue;
          } catch (e) {
            if ((e as { code?: string }).code !== '23505') throw e;
            fallbacks++;
          }
        }
        const text = rewrite(b.text);
        await client.query(named ? { name: nameOf(text), text, values: b.values } : { text, values: b.values });
      }
      const wallS = (performance.now() - t0) / 1000;
      const cpuS = processCpuSeconds(pid) - cpu0;
      const size = (await client.query<{ mb: string }>(`SELECT round(pg_database_size(current_database()) / 1e6) AS mb`)).rows[0]!.mb;
      // What the variant stored, time stamps aside: equal digests mean equal rows in every table with a raw column.
      const tables = (await client.query<{ t: string }>(`SELECT table_name AS t FROM information_schema.columns
        WHERE table_schema = 'public' AND column_name = 'raw' AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE') ORDER BY 1`)).rows.map((r) => r.t);
      let digest = 0n;
      for (const t of tables) {
        const { rows: d } = await client.query<{ h: string }>(`SELECT COALESCE(sum(hashtextextended((to_jsonb(x) - ARRAY['created_at', 'updated_at', 'first_seen_at', 'last_seen_at', 'fetched_at', 'taken_at', 'recorded_at', 'imported_at'])::text, 0)::numeric), 0)::text AS h FROM "${t}" x`);
        digest = (digest * 31n + BigInt(d[0]!.h)) % (2n ** 61n - 1n);
      }
      const historyCpuS = cpuS - candleCpuS;
      return [variant, batches.length, records + candles, Number(wallS.toFixed(2)), Number(cpuS.toFixed(2)), Number((historyCpuS * 1e6 / records).toFixed(1)), Number((candleCpuS * 1e6 / Math.max(candles, 1)).toFixed(1)), fallbacks, size, digest.toString(16)];
    } finally {
      await client.end();
    }
  } finally {
    // BENCH_KEEP=1 keeps the databases (for EXPLAIN on loaded tables); drop them by hand.
    if (process.env.BENCH_KEEP === '1') console.log(`kept database ${name}`);
    else await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

console.log(machineInfo());
console.log(`- batches: ${file} (${batches.length} statements, ${records} history records, ${candles} price candles); base schema ${baseSql}\n`);
const header = ['variant', 'statements', 'records + candles', 'wall s', 'backend CPU s', 'µs/history record', 'µs/candle', 'plain-insert fallbacks', 'db MB', 'rows digest'];
const rows: (string | number)[][] = [];
for (let i = 0; i < repeat; i++) {
  for (const v of variants) {
    const row = await runVariant(v);
    rows.push(row);
    console.log(markdownTable(header, [row]).split('\n').at(-1));
  }
}
console.log(`\n${markdownTable(header, rows)}`);
