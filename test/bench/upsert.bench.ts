// Bulk upsert benchmark: multi-row INSERT ... VALUES vs COPY into a staging table, on a
// realistic 20-column table with jsonb. Run by hand, results go to BENCHMARKS.md:
//
//   npx tsx test/bench/upsert.bench.ts            # against TEST_DATABASE_URL or the 5432 service
//   DATABASE_URL=postgresql://... npx tsx test/bench/upsert.bench.ts
//
// Each cell is the best of several runs (less noise from other work on the machine); every
// run is one transaction on an emptied table, and its counts are checked.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, poolOf } from '../../src/db/createDb.js';
import { withTransaction } from '../../src/db/withTransaction.js';
import { upsertByCopy } from '../../src/db/upsertByCopy.js';
import { upsertByValues } from '../../src/db/upsertByValues.js';
import type { Row, UpsertCounts, UpsertTarget } from '../../src/db/upsertTarget.js';
import { withDefaultUser } from '../../src/db/withDefaultUser.js';

const adminUrl = withDefaultUser(process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://127.0.0.1:5432/test');
const sizes = (process.env.BENCH_SIZES ?? '100,1000,10000,100000').split(',').map(Number);
const methods = {
  values: upsertByValues,
  copy: upsertByCopy,
} as const;
type Method = keyof typeof methods;

const table: UpsertTarget = { table: 'bench_orders', key: ['account_uid', 'order_id'], onChange: ['updated_at = now()'] };

const ddl = `CREATE TABLE bench_orders (
  account_uid text NOT NULL, order_id text NOT NULL, client_oid text, symbol text, side text,
  order_type text, status text, price numeric, size numeric, price_avg numeric, base_volume numeric,
  quote_volume numeric, fee_detail text, cancel_reason text, c_time timestamptz, u_time timestamptz,
  raw jsonb NOT NULL, problems text[] NOT NULL DEFAULT '{}',
  first_seen_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_uid, order_id))`;

function order(i: number, status: string): Row {
  const t = 1_700_000_000_000 + i * 1000;
  const price = `${27000 + (i % 997)}.${String(i % 100).padStart(2, '0')}`;
  const size = `0.${String(100000 + (i % 89999)).slice(1)}`;
  const fee = `{"newFees":{"c":0,"d":0,"r":-0.0000${i % 9}1,"t":-0.0000${i % 9}1,"totalDeductionFee":0}}`;
  const rec = {
    userId: '1234567890', symbol: 'BTCUSDT', orderId: String(1_000_000_000 + i), clientOid: `c-${i}`, price, size,
    orderType: 'limit', side: i % 2 ? 'buy' : 'sell', status, priceAvg: price, baseVolume: size,
    quoteVolume: '1234.5678', enterPointSource: 'API', feeDetail: fee, orderSource: 'normal',
    cancelReason: '', cTime: String(t), uTime: String(t + 500),
  };
  return {
    account_uid: '1234567890', order_id: rec.orderId, client_oid: rec.clientOid, symbol: rec.symbol, side: rec.side,
    order_type: rec.orderType, status, price, size, price_avg: price, base_volume: size, quote_volume: rec.quoteVolume,
    fee_detail: fee, cancel_reason: null, c_time: new Date(t), u_time: new Date(t + 500), raw: JSON.stringify(rec),
    problems: [],
  };
}

async function main(): Promise<void> {
  const name = `tl_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = createDb(url.toString(), { maxConnections: 2 });
  const version = (await poolQuery(db, 'SHOW server_version')).rows[0]?.server_version;
  console.log(`PostgreSQL ${version}, ${url.host}; best of runs; rows/s (higher is better)\n`);
  console.log('| rows | scenario | values rows/s | copy rows/s | faster |');
  console.log('|---:|---|---:|---:|---|');
  try {
    await poolQuery(db, ddl);
    for (const n of sizes) {
      for (const scenario of ['insert-only', '50% update'] as const) {
        const best: Record<Method, number> = { values: 0, copy: 0 };
        const runs = n >= 100_000 ? 2 : n >= 10_000 ? 3 : n >= 1000 ? 7 : 20;
        for (let r = 0; r < runs; r++) {
          for (const m of Object.keys(methods) as Method[]) best[m] = Math.max(best[m], await once(db, m, n, scenario));
        }
        const faster = best.copy > best.values ? `copy ×${(best.copy / best.values).toFixed(2)}` : `values ×${(best.values / best.copy).toFixed(2)}`;
        console.log(`| ${n.toLocaleString('en')} | ${scenario} | ${Math.round(best.values).toLocaleString('en')} | ${Math.round(best.copy).toLocaleString('en')} | ${faster} |`);
      }
    }
  } finally {
    await db.destroy();
    await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.end();
  }
}

async function once(db: ReturnType<typeof createDb>, method: Method, n: number, scenario: 'insert-only' | '50% update'): Promise<number> {
  await poolQuery(db, 'TRUNCATE bench_orders');
  const half = Math.floor(n / 2);
  if (scenario === '50% update') {
    // The first half of the keys exist already as 'live'; the batch turns them 'filled'.
    await withTransaction(db, (tx) => upsertByCopy(tx, table, Array.from({ length: half }, (_, i) => order(i, 'live'))));
  }
  await poolQuery(db, 'VACUUM ANALYZE bench_orders');
  const rows = Array.from({ length: n }, (_, i) => order(i, 'filled'));
  const started = process.hrtime.bigint();
  const counts: UpsertCounts = await withTransaction(db, (tx) => methods[method](tx, table, rows));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const expected = scenario === 'insert-only' ? { inserted: n, updated: 0, unchanged: 0 } : { inserted: n - half, updated: half, unchanged: 0 };
  if (JSON.stringify(counts) !== JSON.stringify(expected)) throw new Error(`${method} ${scenario} ${n}: counts ${JSON.stringify(counts)}, expected ${JSON.stringify(expected)}`);
  return n / seconds;
}

function poolQuery(db: ReturnType<typeof createDb>, text: string) {
  return poolOf(db).query(text);
}

await main();
