import path from 'node:path';
import { createClient } from '../db/pools.js';
import { toPenny } from './gainsDecimal.js';
import { runGains } from './runGains.js';
import { ruleSet } from './ruleSets.js';
import { utcDate, utcYear } from '../normalize/calendarDate.js';

/**
 * The demo's gains: the current tax year under the UK rules (year from 6 April, in GBP when ECB
 * rates are imported, else in USD) and the US rules (USD). Returns one line per run.
 *
 * Each goes into `<root>/gains-<rules>`, beside the demo's report folders. Demo-trading accounts
 * are left out unless `includeDemo` (then valued 0), as in `tradeledger gains`.
 *
 * @example
 * const lines = await demoGains(url, Date.now(), 'tradeledger-reports/2026');
 */
export async function demoGains(databaseUrl: string, now: number, root: string, includeDemo = false): Promise<string[]> {
  const today = utcDate(now);
  const year = utcYear(now);
  const ukYear = today >= ruleSet('uk').taxYear(year).from ? year : year - 1;
  const client = createClient({ url: databaseUrl, name: 'demo-gains' });
  await client.connect();
  const gbp = await client.query("SELECT 1 FROM fx_rates_daily WHERE currency = 'GBP' LIMIT 1").finally(() => client.end());
  const ukFiat = gbp.rowCount ? 'GBP' : 'USD';
  const lines: string[] = [];
  for (const [rules, y, fiat, tz] of [['uk', ukYear, ukFiat, 'Europe/London'], ['us', year, 'USD', 'America/New_York']] as const) {
    const { outDir, summary } = await runGains({ databaseUrl, rules, year: y, fiat, tz, outDir: path.join(root, `gains-${rules}`), includeDemo });
    // Two short lines each, so neither wraps on an 80-column terminal.
    lines.push(`  ${outDir}`, `    ${rules.toUpperCase()} from ${summary.period.from.slice(0, 10)}: ${summary.total.disposals} disposals, gains ${toPenny(summary.total.gains)}, losses ${toPenny(summary.total.losses)} ${fiat}`);
    // Short, like the lines above; summary.txt has the whole reason, its source and the fix. The
    // UK run in USD (no ECB rates yet) is said once, below; that the year is not over, in the heading.
    for (const f of summary.incomplete) {
      if (f.problem === 'currency' || f.problem === 'period_open' || f.problem === 'not_synced') continue;
      lines.push(`    not ready to file: ${f.problem === 'unpriced' ? `${f.rows} rows without a ${fiat} value` : `${f.rows} disposal parts without a cost`} (summary.txt)`);
    }
  }
  // A UK return is in pounds (HMRC CRYPTO23000): in USD its summary.txt says NOT READY TO FILE.
  if (ukFiat === 'USD') lines.push('  (UK in USD, not for filing: `tradeledger import fx eurofxref-hist.zip`)');
  return lines;
}

