import type pg from 'pg';
import { addDays } from '../normalize/calendarDate.js';

/**
 * A reason a gains run's figures are not yet the return's: a figure the run did not have and
 * counted as 0. Two kinds:
 *  - `unpriced`: ledger rows with no value in the run's fiat (no candle, fill price, stablecoin
 *    quote, or ECB rate: docs/valuation.md); each counts 0 in proceeds, costs and income, so a
 *    year valued in a fiat whose rates were never imported shows gains and losses of 0;
 *  - `no_cost_basis`: parts of the tax year's disposals with no lots to match (more was disposed
 *    of than the ledger holds); each counts a cost of 0, so its whole proceeds are gain;
 *  - `currency`: a country's rules in a fiat that is not its return's (RuleSet.currency: HMRC,
 *    the IRS, the ATO, the CRA and § 23 EStG each ask for their own currency), such as the UK
 *    boxes in USD that the demo writes before ECB rates are imported;
 *  - `period_open`: the tax year (with the days after it whose acquisitions can still match its
 *    disposals: UK 30 days, Canada's superficial losses) has not ended, so what happens until
 *    then is not in the figures;
 *  - `not_synced`: it has ended, but some stream of the accounts read was last synced up to a
 *    time before its end, so the database may not hold all of it.
 * summary.json lists them (`incomplete`), summary.txt opens with them, and `tradeledger gains`
 * prints each as a warning: a report that looks finished is not filed with a made-up 0 in it.
 */
export interface IncompleteFigure {
  problem: 'unpriced' | 'no_cost_basis' | 'currency' | 'period_open' | 'not_synced';
  /** Ledger rows (unpriced), or gains.csv rows (no_cost_basis; currency: all of them). */
  rows: number;
  text: string;
  fix: string;
}

/**
 * The ECB rates a value in `fiat` needs that fx_rates has none of: candles and stablecoins are in
 * USD, so any fiat but USD needs the USD rate, and any but USD and EUR its own (EUR is 1 per EUR;
 * docs/valuation.md, "FX"). [] when every one has at least one rate.
 *
 * @example
 * await missingFxRates(client, 'GBP'); // ['GBP', 'USD'] before `tradeledger import fx`
 */
export async function missingFxRates(client: Pick<pg.Pool, 'query'>, fiat: string): Promise<string[]> {
  const needed = fiat === 'USD' ? [] : fiat === 'EUR' ? ['USD'] : [fiat, 'USD'];
  if (needed.length === 0) return [];
  const { rows } = await client.query<{ c: string }>(
    'SELECT c FROM unnest($1::text[]) c WHERE NOT EXISTS (SELECT 1 FROM fx_rates r WHERE r.currency = c) ORDER BY c', [needed]);
  return rows.map((r) => r.c);
}

/** What {@link incompleteFigures} reads of a run. */
export interface RunFacts {
  /** runGains' `problems`: `unpriced` counts the ledger rows read, `no_cost_basis` the tax year's no-cost matches. */
  dataQuality: Record<string, number>;
  fiat: string;
  /** The ECB rates a value in `fiat` needs that are not imported ({@link missingFxRates}). */
  missingRates: string[];
  /** gains.csv's rows. */
  matches: number;
  rules: string;
  /** The return's currency (RuleSet.currency), and the rates a value in it still needs. */
  returnCurrency?: { code: string; source: string; missingRates: string[] };
  /**
   * What the run read up to and what the database holds: the tax year's last day and the local
   * date read up to (exclusive; later than the year's end by the rules' look-ahead), both in
   * `tz`, and as instants with the time of the read and the earliest watermark of the accounts'
   * streams (null when none is synced: imported wallets only), with the stream it is of
   * ('<account> <stream>[/<partition>]').
   */
  period?: { lastDay: string; readTo: string; tz: string; readToMs: number; nowMs: number; syncedToMs: number | null; lagging: string | null };
}

/**
 * What keeps a run's figures from being filed as they are. [] when nothing does.
 *
 * @example
 * incompleteFigures({ dataQuality: { unpriced: 3 }, fiat: 'GBP', missingRates: ['GBP', 'USD'], matches: 1, rules: 'uk' })[0].fix; // 'no GBP or USD rates are imported: ...'
 */
export function incompleteFigures(run: RunFacts): IncompleteFigure[] {
  const { dataQuality, fiat, missingRates } = run;
  const out: IncompleteFigure[] = [];
  const ret = run.returnCurrency;
  if (ret && ret.code !== fiat) {
    out.push({
      problem: 'currency',
      rows: run.matches,
      text: `the ${run.rules} rules' return is in ${ret.code} (${ret.source}); every figure here is in ${fiat}`,
      fix: ret.missingRates.length > 0
        ? `import the ECB rates (\`tradeledger import fx eurofxref-hist.zip\`: no ${ret.missingRates.join(' or ')} rates are imported yet), then run gains again with --fiat ${ret.code}`
        : `run gains again with --fiat ${ret.code}`,
    });
  }
  const p = run.period;
  if (p && p.readToMs > p.nowMs) {
    const after = p.readTo > addDays(p.lastDay, 1) ? `, and acquisitions up to ${addDays(p.readTo, -1)} can still match its disposals` : '';
    out.push({
      problem: 'period_open',
      rows: run.matches,
      text: `the tax year has not ended: it runs to ${p.lastDay}${after} (${p.tz}); these figures hold only what the database has now`,
      fix: `run \`tradeledger sync\` and gains again from ${p.readTo}`,
    });
  } else if (p && p.syncedToMs !== null && p.syncedToMs < p.readToMs) {
    out.push({
      problem: 'not_synced',
      rows: run.matches,
      text: `the history of ${p.lagging ?? 'an account'} is synced only up to ${new Date(p.syncedToMs).toISOString()}, before the end of what this run reads (${p.readTo} ${p.tz})`,
      fix: 'run `tradeledger sync` (`tradeledger status` shows each stream\'s watermark), then gains again',
    });
  }
  const unpriced = dataQuality.unpriced ?? 0;
  if (unpriced > 0) {
    out.push({
      problem: 'unpriced',
      rows: unpriced,
      text: `${unpriced} ledger row(s) read for this run have no ${fiat} value and count as 0 in proceeds, costs and income`,
      fix: missingRates.length > 0
        ? `no ${missingRates.join(' or ')} rates are imported: run \`tradeledger import fx eurofxref-hist.zip\` (the ECB's euro reference rates, docs/valuation.md) and run gains again`
        : `each is in gains-data-quality.csv (problem unpriced): give it a price (\`tradeledger classify set --row ... --price ... --price-currency ... --price-source ...\`, docs/ledger.md#corrections), or import the ECB rates of the currency its value is in (\`tradeledger import fx\`), then run gains again`,
    });
  }
  const noCost = dataQuality.no_cost_basis ?? 0;
  if (noCost > 0) {
    out.push({
      problem: 'no_cost_basis',
      rows: noCost,
      text: `${noCost} part(s) of the tax year's disposals had no lots to match (more was disposed of than the ledger holds) and count a cost of 0`,
      fix: 'each is in gains-data-quality.csv (problem no_cost_basis): bring in what was bought before the synced history (`tradeledger reconcile --out DIR` writes opening-balances.csv; fill in the costs and `tradeledger import transactions` it, docs/ledger.md#reconciliation), then run gains again',
    });
  }
  return out;
}

/**
 * The fiat currencies a value can be given in with the rates imported: USD always (candles and
 * stablecoins are in USD), and once the USD rate is there EUR and every currency fx_rates holds
 * (docs/valuation.md, "FX"). The portal's gains form lists them: any other fiat is unpriced.
 *
 * @example
 * await valueCurrencies(pool); // ['USD'] before `tradeledger import fx`, then ['USD', 'EUR', 'GBP', ...]
 */
export async function valueCurrencies(db: Pick<pg.Pool, 'query'>): Promise<string[]> {
  // One index probe per currency (fx_rates_pkey leads with currency), not a scan of every day's rate.
  const { rows } = await db.query<{ c: string }>(`
    WITH RECURSIVE cur(c) AS (
      (SELECT currency FROM fx_rates ORDER BY currency LIMIT 1)
      UNION ALL
      SELECT (SELECT currency FROM fx_rates WHERE currency > cur.c ORDER BY currency LIMIT 1) FROM cur WHERE cur.c IS NOT NULL)
    SELECT c FROM cur WHERE c IS NOT NULL`);
  const have = rows.map((r) => r.c);
  if (!have.includes('USD')) return ['USD'];
  return ['USD', 'EUR', ...have.filter((c) => c !== 'USD' && c !== 'EUR')];
}
