import pg from 'pg';
import { runGains } from './runGains.js';

/**
 * The demo's gains: the current tax year under the UK rules (year from 6 April, in GBP when ECB
 * rates are imported, else in USD) and the US rules (USD). Returns one line per run.
 *
 * @example
 * const lines = await demoGains(url, Date.now());
 */
export async function demoGains(databaseUrl: string, now: number): Promise<string[]> {
  const d = new Date(now);
  const year = d.getUTCFullYear();
  const ukYear = d.toISOString().slice(5, 10) >= '04-06' ? year : year - 1;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const gbp = await client.query("SELECT 1 FROM fx_rates_daily WHERE currency = 'GBP' LIMIT 1").finally(() => client.end());
  const ukFiat = gbp.rowCount ? 'GBP' : 'USD';
  const lines: string[] = [];
  for (const [rules, y, fiat, tz] of [['uk', ukYear, ukFiat, 'Europe/London'], ['us', year, 'USD', 'America/New_York']] as const) {
    const { outDir, summary } = await runGains({ databaseUrl, rules, year: y, fiat, tz });
    lines.push(`  ${outDir}  (${rules.toUpperCase()} ${summary.period.from} to ${summary.period.to}: ${summary.total.disposals} disposals, gains ${fiat} ${summary.total.gains}, losses ${fiat} ${summary.total.losses})`);
  }
  if (ukFiat === 'USD') lines.push('  (UK values in USD: run `tradeledger import fx eurofxref-hist.csv` for GBP)');
  return lines;
}
