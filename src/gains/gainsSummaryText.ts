import type { GainsSummary } from './gainsSummary.js';
import { toPenny as penny } from './gainsDecimal.js';
import { GainsDecimal } from './gainsDecimal.js';

/**
 * summary.txt: the totals a return asks for, readable: fiat figures to the penny (half up), as a
 * return states them; summary.json and gains.csv keep the exact figures they come from.
 *
 * @example
 * writeFileSync('summary.txt', gainsSummaryText(summary));
 */
export function gainsSummaryText(s: GainsSummary): string {
  const lines: string[] = [];
  const penny = (x: string | number) => new GainsDecimal(x).toFixed(2, GainsDecimal.ROUND_HALF_UP);
  const money = (x: string | number) => `${s.fiat} ${penny(x)}`;
  lines.push(`Capital gains, rules ${s.rules}, tax year ${s.taxYear}: ${s.period.from} to ${s.period.to} (exclusive), dates in ${s.period.tz}`);
  lines.push('');
  lines.push(`Disposals        ${s.total.disposals}`);
  lines.push(`Proceeds         ${money(s.total.proceeds)}`);
  lines.push(`Costs            ${money(s.total.cost)}`);
  lines.push(`Gains            ${money(s.total.gains)}`);
  lines.push(`Losses           ${money(s.total.losses)}`);
  lines.push('');
  lines.push('By rule:');
  for (const [cls, t] of Object.entries(s.byClass)) lines.push(`  ${cls.padEnd(12)} rows ${t.rows}, proceeds ${penny(t.proceeds)}, cost ${penny(t.cost)}, gains ${penny(t.gains)}, losses ${penny(t.losses)}`);
  if (s.sa108) {
    lines.push('', 'UK SA108 (capital gains summary, cryptoassets):');
    lines.push(`  Number of disposals                 ${s.sa108.numberOfDisposals}`);
    lines.push(`  Disposal proceeds                   ${money(s.sa108.disposalProceeds)}`);
    lines.push(`  Allowable costs                     ${money(s.sa108.allowableCosts)}`);
    lines.push(`  Gains in the year, before losses    ${money(s.sa108.gainsBeforeLosses)}`);
    lines.push(`  Losses in the year                  ${money(s.sa108.losses)}`);
  }
  if (s.anlageSO) {
    const a = s.anlageSO;
    lines.push('', 'Anlage SO, private Veräußerungsgeschäfte (andere Wirtschaftsgüter, § 23 EStG):');
    lines.push(`  Gewinne (Haltedauer bis 1 Jahr)     ${money(a.taxableGains)}`);
    lines.push(`  Verluste (Haltedauer bis 1 Jahr)    ${money(a.taxableLosses)}`);
    lines.push(`  Saldo                               ${money(a.net)}`);
    lines.push(`  steuerfrei (über 1 Jahr gehalten)   ${money(a.exemptNet)}`);
    lines.push(`  Freigrenze                          ${money(a.freigrenze)} (${a.belowFreigrenze ? 'unterschritten: steuerfrei' : 'erreicht: der ganze Saldo ist steuerpflichtig'})`);
    lines.push(`  steuerpflichtig                     ${money(a.taxableAmount)}`);
    lines.push(`  ${a.source}`);
  }
  if (s.cgtDiscount) {
    lines.push('', 'Australia, CGT discount:');
    lines.push(`  Gains held 12 months or more (discountable)  ${money(s.cgtDiscount.discountableGains)}`);
    lines.push(`  Other gains                                   ${money(s.cgtDiscount.otherGains)}`);
    lines.push(`  Capital losses                                ${money(s.cgtDiscount.losses)}`);
  }
  if (Object.keys(s.income).length > 0) {
    lines.push('', 'Income and expenses (income.csv):');
    for (const [k, v] of Object.entries(s.income)) lines.push(`  ${k.padEnd(24)} ${money(v)}`);
  }
  if (s.holdings.length > 0) {
    lines.push('', 'Still held at the end (quantity, cost):');
    for (const h of s.holdings) lines.push(`  ${h.asset.padEnd(10)} ${h.quantity}  ${money(h.cost)}`);
  }
  if (Object.keys(s.dataQuality).length > 0) {
    lines.push('', 'Data quality (gains-data-quality.csv):');
    for (const [k, v] of Object.entries(s.dataQuality)) lines.push(`  ${k.padEnd(24)} ${v}`);
  }
  if (s.demo.accounts.length > 0) {
    lines.push('', s.demo.included ? 'Demo-trading (paper) accounts, included on request (--include-demo):' : 'Left out: demo-trading (paper) accounts (--include-demo puts them in):');
    for (const a of s.demo.accounts) lines.push(`  ${a.name} (${a.account}): ${a.reason}`);
    lines.push(`  ${s.demo.treatment}`);
  }
  lines.push('', 'Fiat figures here are rounded to the penny; summary.json and gains.csv hold them exactly.');
  return `${lines.join('\n')}\n`;
}
