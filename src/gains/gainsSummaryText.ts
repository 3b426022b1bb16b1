import type { FormBox, GainsSummary } from './gainsSummary.js';
import { GainsDecimal } from './gainsDecimal.js';

/**
 * summary.txt: the totals a return asks for, readable, in the return's own terms: the form's box
 * or line beside each figure, SA108 boxes in whole pounds with the rounding rule stated, other
 * fiat figures to the penny (half up); each section names its source. summary.json and the
 * gains_matches table keep the exact figures they come from.
 *
 * @example
 * writeFileSync('summary.txt', gainsSummaryText(summary));
 */
export function gainsSummaryText(s: GainsSummary): string {
  const lines: string[] = [];
  const penny = (x: string | number) => new GainsDecimal(x).toFixed(2, GainsDecimal.ROUND_HALF_UP);
  const money = (x: string | number) => `${s.fiat} ${penny(x)}`;
  const boxLines = (boxes: FormBox[]) => boxes.map((b) => `  box ${b.box.padEnd(5)} ${b.label.padEnd(44)} ${b.label.startsWith('Number') ? b.value : `${s.fiat} ${b.value}`}`);
  lines.push(`Capital gains, rules ${s.rules}, tax year ${s.taxYear}: ${s.period.from} to ${s.period.to} (exclusive), dates in ${s.period.tz}`);
  lines.push('');
  // Why the figures are not yet the return's (a value or a cost counted as 0, another currency)
  // comes first, and every form's section says so (incompleteFigures.ts).
  const incomplete = s.incomplete;
  if (incomplete.length > 0) {
    lines.push(`NOT READY TO FILE: the figures below are not yet the return's, for these reasons:`);
    for (const f of incomplete) lines.push(`  - ${f.text}.`, `    Fix: ${f.fix}.`);
    lines.push('');
  }
  const form = (title: string) => (incomplete.length > 0 ? `${title.replace(/:$/, '')} - NOT READY TO FILE (see the top):` : title);
  lines.push(`Disposals        ${s.total.disposals}`);
  lines.push(`Proceeds         ${money(s.total.proceeds)} (after disposal costs of ${money(s.total.disposalCosts)})`);
  lines.push(`Costs            ${money(s.total.cost)}`);
  lines.push(`Gains            ${money(s.total.gains)}`);
  lines.push(`Losses           ${money(s.total.losses)}`);
  lines.push('');
  lines.push('By rule:');
  for (const [cls, t] of Object.entries(s.byClass)) lines.push(`  ${cls.padEnd(12)} rows ${t.rows}, proceeds ${penny(t.proceeds)}, cost ${penny(t.cost)}, gains ${penny(t.gains)}, losses ${penny(t.losses)}`);
  if (s.sa108) {
    lines.push('', form('UK SA108 capital gains summary, cryptoassets (whole pounds; exact figures in summary.json):'));
    lines.push(...boxLines(s.sa108.boxes));
    for (const p of s.sa108.periods ?? []) {
      lines.push(`  of which ${p.label}, ${p.from} to ${p.to} (exclusive):`);
      lines.push(...boxLines(p.boxes).map((l) => `  ${l}`));
    }
    lines.push(`  Rounding: ${s.sa108.rounding}`);
    lines.push(`  Proceeds are before the costs of disposal, which are among the allowable costs.`);
    lines.push(`  Source: ${s.sa108.source}`);
    if (s.sa108.periods) lines.push('  The 2024-25 split: Finance Act 2025 s. 7(3), the new rates "have effect in relation to disposals made on or after 30 October 2024".');
  }
  if (s.anlageSO) {
    const a = s.anlageSO;
    lines.push('', form('Anlage SO, private Veräußerungsgeschäfte (andere Wirtschaftsgüter, § 23 EStG), Haltedauer bis 1 Jahr:'));
    for (const l of a.lines) lines.push(`  Zeile ${l.line.padEnd(3)} ${l.label.padEnd(34)} ${l.line === '42' ? l.value : money(l.value)}`);
    lines.push(`  Verluste (Haltedauer bis 1 Jahr)        ${money(a.taxableLosses)}`);
    lines.push(`  steuerfrei (über 1 Jahr gehalten)       ${money(a.exemptNet)}`);
    lines.push(`  Freigrenze                              ${money(a.freigrenze)} (${a.belowFreigrenze ? 'unterschritten: steuerfrei' : 'erreicht: der ganze Saldo ist steuerpflichtig'})`);
    lines.push(`  steuerpflichtig                         ${money(a.taxableAmount)}`);
    lines.push(`  Source: ${a.source}`);
  }
  if (s.cgtDiscount) {
    const c = s.cgtDiscount;
    lines.push('', form('Australia, capital gains (item 18, supplementary section):'));
    lines.push(`  Gains held 12 months or more (discountable)  ${money(c.discountableGains)}`);
    lines.push(`  Other gains                                   ${money(c.otherGains)}`);
    lines.push(`  Capital losses of the year                    ${money(c.losses)}`);
    for (const l of c.labels) lines.push(`  label ${l.label}  ${l.text.padEnd(40).slice(0, 40)}  ${money(l.value)}`);
    lines.push('  Earlier years\' net capital losses are not known here: take them off before the discount.');
    lines.push(`  Source: ${c.source}`);
  }
  if (s.schedule3) {
    const c = s.schedule3;
    lines.push('', form('Canada, Schedule 3 (capital gains or losses):'));
    lines.push(`  (2) Proceeds of disposition        ${money(c.proceeds)}`);
    lines.push(`  (3) Adjusted cost base             ${money(c.adjustedCostBase)}`);
    lines.push(`  (4) Outlays and expenses           ${money(c.outlaysAndExpenses)}`);
    lines.push(`  (5) Gains                          ${money(c.gains)}`);
    lines.push(`  (5) Losses                         ${money(c.losses)}`);
    lines.push(`  Superficial losses denied          ${money(c.superficialLossesDenied)} (added to the substituted property's cost)`);
    lines.push(`  Net x inclusion rate ${c.inclusionRate}`);
    lines.push(`  line 12700 Taxable capital gain    ${money(c.taxableCapitalGain)}`);
    if (new GainsDecimal(c.netCapitalLoss).gt(0)) lines.push(`  Net capital loss of the year       ${money(c.netCapitalLoss)}`);
    lines.push(`  Source: ${c.source}`);
  }
  if (s.scheduleD) {
    const d = s.scheduleD;
    lines.push('', form('US Schedule D (from Form 8949):'));
    lines.push(`  Part I, short term    proceeds ${money(d.shortTerm.proceeds)}, cost ${money(d.shortTerm.cost)}, gain ${money(d.shortTerm.gain)}`);
    lines.push(`  Part II, long term    proceeds ${money(d.longTerm.proceeds)}, cost ${money(d.longTerm.cost)}, gain ${money(d.longTerm.gain)}`);
    lines.push(`  Source: ${d.source}`);
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
  // The SA108 note only where there are SA108 boxes: a US or FIFO summary in dollars has neither pennies nor pounds.
  lines.push('', `${s.fiat} figures here are rounded to 2 decimals, half up${s.sa108 ? ' (the SA108 boxes to whole pounds, as stated)' : ''}; summary.json holds them exactly, gains.csv to 2 decimals.`);
  return `${lines.join('\n')}\n`;
}
