import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { bindNamedParameters } from '../reports/bindNamedParameters.js';
import { defaultReportsDir } from '../reports/runReports.js';
import type { ReportPeriod } from '../reports/reportPeriod.js';

/** Month-by-month series for the charts page. Amounts stay decimal strings; the browser plots them. */
export interface ChartData {
  /** 'YYYY-MM' labels of the period's months, in the period's zone. */
  months: string[];
  /** End-of-month balance per coin (all wallets), for the coins with the most activity. */
  balances: { coin: string; values: string[] }[];
  /** Realized PnL per month and coin, from the futures-pnl report's own query. */
  realizedPnl: { coin: string; values: string[] }[];
  /** Fees paid per month and coin, from the fees report's own query. */
  fees: { coin: string; values: string[] }[];
}

const maxCoins = 6;

async function reportSql(name: string, period: ReportPeriod, account: string, reportsDir: string) {
  const sql = await readFile(path.join(reportsDir, `${name}.sql`), 'utf8');
  return bindNamedParameters(sql, { from: period.from, to: period.to, tz: period.tz, account });
}

/**
 * Reads the charts' series for one account (or '' for all) over a period. PnL and fees are sums
 * of the same rows futures-pnl.csv and fees.csv hold, so a chart never disagrees with a download.
 *
 * @example
 * const data = await chartData(pool, reportPeriod({ year: '2025', tz: 'UTC' }), '1000000001');
 */
export async function chartData(pool: pg.Pool, period: ReportPeriod, account: string, reportsDir = defaultReportsDir): Promise<ChartData> {
  const months = (await pool.query<{ m: string }>(
    `SELECT to_char(m, 'YYYY-MM') AS m FROM generate_series(date_trunc('month', $1::timestamp), $2::timestamp - interval '1 day', interval '1 month') AS m`,
    [period.from, period.to])).rows.map((r) => r.m);
  // Balance: everything before the period opens it, then each month's change is added.
  const balances = await pool.query<{ coin: string; month: string; balance: string }>(
    `WITH moves AS (
       SELECT coin, greatest(date_trunc('month', ts AT TIME ZONE $3), date_trunc('month', $1::timestamp)) AS m, sum(amount) AS change
       FROM ledger
       WHERE ts < $2::timestamp AT TIME ZONE $3 AND ($4 = '' OR account_uid = $4) AND coin IS NOT NULL
       GROUP BY 1, 2
     ), active AS (
       SELECT coin FROM ledger
       WHERE ts >= $1::timestamp AT TIME ZONE $3 AND ts < $2::timestamp AT TIME ZONE $3 AND ($4 = '' OR account_uid = $4) AND coin IS NOT NULL
       GROUP BY coin ORDER BY count(*) DESC, coin LIMIT ${maxCoins}
     )
     SELECT coin, to_char(m, 'YYYY-MM') AS month, (sum(change) OVER (PARTITION BY coin ORDER BY m))::text AS balance
     FROM moves WHERE coin IN (SELECT coin FROM active) ORDER BY coin, m`,
    [period.from, period.to, period.tz, account]);
  const pnl = await reportSql('futures-pnl', period, account, reportsDir);
  const realized = await pool.query<{ coin: string; month: string; total: string }>(
    `SELECT coin, left(time_local, 7) AS month, sum(realized_pnl::numeric)::text AS total FROM (\n${pnl.text}\n) AS r
     WHERE coin IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`, pnl.values);
  const fee = await reportSql('fees', period, account, reportsDir);
  const fees = await pool.query<{ coin: string; month: string; total: string }>(
    `SELECT coin, left(time_local, 7) AS month, sum(paid::numeric)::text AS total FROM (\n${fee.text}\n) AS f
     WHERE coin IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`, fee.values);
  return {
    months,
    balances: carryForward(months, balances.rows.map((r) => ({ coin: r.coin, month: r.month, value: r.balance }))),
    realizedPnl: topCoins(perMonth(months, realized.rows.map((r) => ({ coin: r.coin, month: r.month, value: r.total })))),
    fees: topCoins(perMonth(months, fees.rows.map((r) => ({ coin: r.coin, month: r.month, value: r.total })))),
  };
}

type Point = { coin: string; month: string; value: string };

function group(points: Point[]): Map<string, Map<string, string>> {
  const byCoin = new Map<string, Map<string, string>>();
  for (const p of points) {
    if (!byCoin.has(p.coin)) byCoin.set(p.coin, new Map());
    byCoin.get(p.coin)!.set(p.month, p.value);
  }
  return byCoin;
}

// A month without ledger rows keeps the previous month's balance.
function carryForward(months: string[], points: Point[]): ChartData['balances'] {
  return [...group(points)].map(([coin, byMonth]) => {
    let last = '0';
    return { coin, values: months.map((m) => (last = byMonth.get(m) ?? last)) };
  });
}

function perMonth(months: string[], points: Point[]): ChartData['fees'] {
  return [...group(points)].map(([coin, byMonth]) => ({ coin, values: months.map((m) => byMonth.get(m) ?? '0') }));
}

// The coins with the most months of activity; the rest would be unreadable slivers.
function topCoins(series: ChartData['fees']): ChartData['fees'] {
  return series
    .map((s) => ({ s, n: s.values.filter((v) => v !== '0' && !/^-?0(\.0+)?$/.test(v)).length }))
    .filter(({ n }) => n > 0)
    .sort((a, b) => b.n - a.n || a.s.coin.localeCompare(b.s.coin))
    .slice(0, maxCoins)
    .map(({ s }) => s);
}
