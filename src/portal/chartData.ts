import type pg from 'pg';
import type { ReportPeriod } from '../reports/reportPeriod.js';

/**
 * Month-by-month series for the charts page, every value in one fiat currency so each chart has
 * one axis in one unit (never BTC beside USDC). Amounts stay decimal strings; the browser plots
 * them.
 */
export interface ChartData {
  /** ISO 4217 code every value is in. */
  fiat: string;
  /** 'YYYY-MM' labels of the period's months in its zone, up to the current month (none in the future). */
  months: string[];
  /** Month-end holding per coin (all wallets), valued at that month's last candle (stablecoins at their peg), for the largest holdings. */
  balances: { coin: string; values: string[] }[];
  /** Realized futures PnL per month and margin coin, valued as ledger_valued values each row. */
  realizedPnl: { coin: string; values: string[] }[];
  /** Fees paid per month and coin (positive = paid), valued as ledger_valued values each row. */
  fees: { coin: string; values: string[] }[];
  /** Coins held in the period that have no price in this fiat: left out of the balance chart. */
  unpricedCoins: string[];
}

const maxCoins = 6;

/**
 * Reads the charts' series for one account (or '' for all) over a period, valued in `fiat`. PnL
 * and fees are sums of ledger_valued's values of the same ledger rows futures-pnl.csv and
 * fees.csv hold; balances are the ledger's month-end sums times the coin's last candle close of
 * the month (docs/valuation.md's candle and stablecoin rules).
 *
 * @example
 * const data = await chartData(pool, reportPeriod({ year: '2025', tz: 'UTC' }), '1000000001', 'USD');
 */
export async function chartData(pool: pg.Pool, period: ReportPeriod, account: string, fiat = 'USD'): Promise<ChartData> {
  const unit = fiat.toUpperCase();
  // No future months: the last month shown is the one that holds now (in the period's zone).
  const months = (await pool.query<{ m: string }>(
    `SELECT to_char(m, 'YYYY-MM') AS m
     FROM generate_series(date_trunc('month', $1::timestamp), least($2::timestamp - interval '1 day', now() AT TIME ZONE $3), interval '1 month') AS m`,
    [period.from, period.to, period.tz])).rows.map((r) => r.m);
  if (months.length === 0) return { fiat: unit, months, balances: [], realizedPnl: [], fees: [], unpricedCoins: [] };
  const balances = await pool.query<{ coin: string; month: string; value: string | null }>(
    `WITH months AS (
       SELECT m, least((m + interval '1 month') AT TIME ZONE $3, now()) AS month_end
       FROM generate_series(date_trunc('month', $1::timestamp), least($2::timestamp - interval '1 day', now() AT TIME ZONE $3), interval '1 month') AS m
     ), moves AS (
       -- everything before the period opens its first month, then each month's change is added
       SELECT coin, greatest(date_trunc('month', ts AT TIME ZONE $3), date_trunc('month', $1::timestamp)) AS m, sum(amount) AS change
       FROM ledger
       WHERE ts < least($2::timestamp AT TIME ZONE $3, now()) AND ($4 = '' OR account_uid = $4) AND coin IS NOT NULL
       GROUP BY 1, 2
     ), held AS (
       SELECT mo.m, mo.month_end, c.coin, sum(coalesce(mv.change, 0)) OVER (PARTITION BY c.coin ORDER BY mo.m) AS quantity
       FROM months mo CROSS JOIN (SELECT DISTINCT coin FROM moves) c
       LEFT JOIN moves mv ON mv.coin = c.coin AND mv.m = mo.m
     ), priced AS (
       SELECT h.*,
              CASE WHEN h.coin = $5 THEN 1
                   ELSE coalesce((SELECT c.close FROM price_candles c JOIN price_symbols ps ON ps.symbol = c.symbol
                                  WHERE ps.coin = h.coin AND c.granularity = '1h' AND c.ts < h.month_end ORDER BY c.ts DESC LIMIT 1),
                                 (SELECT 1 FROM stablecoins s WHERE s.coin = h.coin))
                        * CASE WHEN $5 = 'USD' THEN 1
                               ELSE (SELECT d.per_usd FROM fx_rates_daily d WHERE d.currency = $5 AND d.day <= (h.month_end AT TIME ZONE 'UTC')::date ORDER BY d.day DESC LIMIT 1) END
              END AS unit_price
       FROM held h
     )
     SELECT coin, to_char(m, 'YYYY-MM') AS month, round(CASE WHEN quantity = 0 THEN 0 ELSE quantity * unit_price END, 2)::text AS value
     FROM priced ORDER BY coin, m`,
    [period.from, period.to, period.tz, account, unit]);
  const flows = await pool.query<{ series: string; coin: string; month: string; total: string | null }>(
    `SELECT CASE WHEN kind = 'realized_pnl' THEN 'pnl' ELSE 'fee' END AS series, coin,
            to_char(ts AT TIME ZONE $3, 'YYYY-MM') AS month,
            round(sum(CASE WHEN kind = 'fee' THEN -value ELSE value END), 2)::text AS total
     FROM ledger_valued($5, $1::timestamp AT TIME ZONE $3, $2::timestamp AT TIME ZONE $3)
     WHERE kind IN ('realized_pnl', 'fee') AND ($4 = '' OR account_uid = $4) AND coin IS NOT NULL AND value IS NOT NULL
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    [period.from, period.to, period.tz, account, unit]);
  const unpricedCoins = [...new Set(balances.rows.filter((r) => r.value === null).map((r) => r.coin))].sort();
  const priced = balances.rows.filter((r) => r.value !== null).map((r) => ({ coin: r.coin, month: r.month, value: r.value! }));
  const of = (series: string) => flows.rows.filter((r) => r.series === series && r.total !== null).map((r) => ({ coin: r.coin, month: r.month, value: r.total! }));
  return {
    fiat: unit,
    months,
    balances: largest(perMonth(months, priced)),
    realizedPnl: topCoins(perMonth(months, of('pnl'))),
    fees: topCoins(perMonth(months, of('fee'))),
    unpricedCoins,
  };
}

type Point = { coin: string; month: string; value: string };

function perMonth(months: string[], points: Point[]): ChartData['fees'] {
  const byCoin = new Map<string, Map<string, string>>();
  for (const p of points) {
    if (!byCoin.has(p.coin)) byCoin.set(p.coin, new Map());
    byCoin.get(p.coin)!.set(p.month, p.value);
  }
  return [...byCoin].map(([coin, byMonth]) => ({ coin, values: months.map((m) => byMonth.get(m) ?? '0') }));
}

const isZero = (v: string) => /^-?0(\.0+)?$/.test(v);
// Compares two decimal strings by magnitude without a float: integer digits first, then text.
const magnitude = (v: string) => v.replace(/^-/, '');
const bigger = (a: string, b: string) => {
  const [ai = '', af = ''] = magnitude(a).split('.');
  const [bi = '', bf = ''] = magnitude(b).split('.');
  return ai.length !== bi.length ? ai.length - bi.length : ai !== bi ? (ai < bi ? -1 : 1) : af.padEnd(12, '0') < bf.padEnd(12, '0') ? -1 : af.padEnd(12, '0') > bf.padEnd(12, '0') ? 1 : 0;
};

// The holdings worth the most at the last month; the rest would be unreadable slivers.
function largest(series: ChartData['balances']): ChartData['balances'] {
  return series
    .filter((s) => s.values.some((v) => !isZero(v)))
    .sort((a, b) => bigger(b.values.at(-1) ?? '0', a.values.at(-1) ?? '0') || a.coin.localeCompare(b.coin))
    .slice(0, maxCoins);
}

// The coins with the most months of activity.
function topCoins(series: ChartData['fees']): ChartData['fees'] {
  return series
    .map((s) => ({ s, n: s.values.filter((v) => !isZero(v)).length }))
    .filter(({ n }) => n > 0)
    .sort((a, b) => b.n - a.n || a.s.coin.localeCompare(b.s.coin))
    .slice(0, maxCoins)
    .map(({ s }) => s);
}
