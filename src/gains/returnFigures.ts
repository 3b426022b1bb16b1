import { GainsDecimal, ZERO } from './gainsDecimal.js';

/**
 * The arithmetic a return does with a year's gains and losses, as each authority words it, kept
 * apart from the matching so each rule is tested against the authority's own worked example
 * (test/gains/returnFigures.test.ts). Sources: docs/gains.md ("The return's own figures").
 */

/**
 * How the SA108 boxes are rounded to whole pounds: proceeds and gains down, allowable costs and
 * losses up, so rounding never goes against the taxpayer. HMRC's own worked examples round each
 * allowable cost up to the pound (CRYPTO22252: £937.50 as £938; CRYPTO22256: £313,636.36 as
 * £313,637 and the loss £163,637), and the SA100 instructions ask for whole pounds with the pence
 * ignored ("enter your figures in whole pounds - ignore the pence", as quoted at
 * https://forums.moneysavingexpert.com/discussion/5721947/how-to-add-up-interest-dividends-for-tax-return).
 * HMRC's SA108 notes were not among the sources read.
 */
export const SA108_ROUNDING = 'whole pounds: proceeds and gains rounded down (pence ignored), allowable costs and losses rounded up, as HMRC\'s worked examples round each allowable cost up (CRYPTO22252: £937.50 as £938; CRYPTO22256: loss £163,637)';

/**
 * An amount as an SA108 box takes it: whole pounds, rounded down (proceeds, gains) or up (costs,
 * losses).
 *
 * @example
 * wholePounds('4810.333333333333', 'up'); // '4811'
 * wholePounds('629.666666666667', 'down'); // '629'
 */
export function wholePounds(value: string | GainsDecimal, direction: 'down' | 'up'): string {
  return new GainsDecimal(value).toDecimalPlaces(0, direction === 'down' ? GainsDecimal.ROUND_DOWN : GainsDecimal.ROUND_UP).toFixed(0);
}

/**
 * UK: the day the main Capital Gains Tax rates changed. Finance Act 2025 s. 7(3): "The amendments
 * made by this section and that Schedule have effect in relation to disposals made on or after
 * 30 October 2024" (https://www.legislation.gov.uk/ukpga/2025/8/section/7). 2024-25 is split
 * there: disposals before it and disposals on or after it.
 */
export const UK_RATE_CHANGE_DAY = '2024-10-30';

/** What Australia's net capital gain comes from (ATO, "Guide to capital gains tax"). */
export interface AustralianGains {
  /** Gains eligible for the CGT discount (asset held at least 12 months), before losses. */
  discountable: GainsDecimal;
  /** Other gains (no discount), before losses. */
  other: GainsDecimal;
  /** Capital losses of the year. */
  losses: GainsDecimal;
  /** Net capital losses of earlier years (not known to this tool; 0 unless given). */
  priorLosses?: GainsDecimal;
  /** The discount for the taxpayer: 50% for individuals. */
  discount?: GainsDecimal;
}

/**
 * The ATO's order: capital losses come off capital gains first, those without the discount first
 * ("in the order that gives her the best result"), then earlier years' net capital losses, then the
 * CGT discount on what is left of the discountable gains; the rest is the net capital gain
 * (label A, item 18 of the supplementary section; item 17 in 2003). Losses left over are carried
 * forward. ATO, Guide to capital gains tax 2002-03, "Example: Net capital gain-A" (Kathleen:
 * $520 - $600 = -$80; $3,000 - $80 = $2,920; $2,920 - $400 = $2,520; $2,520 x 50% = $1,260)
 * https://www.ato.gov.au/Forms/Guide-to-CGT-2002-03/?page=195, and Guide to capital gains tax
 * 2021, steps 8 and 10 (https://www.ato.gov.au/Forms/Guide-to-capital-gains-tax-2021/?page=100).
 *
 * @example
 * australianNetCapitalGain({ discountable: d('3000'), other: d('520'), losses: d('600'), priorLosses: d('400') }).netCapitalGain; // 1260
 */
export function australianNetCapitalGain(g: AustralianGains): { totalCurrentYearGains: GainsDecimal; netCapitalGain: GainsDecimal; lossesCarriedForward: GainsDecimal; discountApplied: GainsDecimal } {
  const discountRate = g.discount ?? new GainsDecimal('0.5');
  let losses = g.losses.plus(g.priorLosses ?? ZERO);
  const fromOther = GainsDecimal.min(losses, g.other);
  const other = g.other.minus(fromOther);
  losses = losses.minus(fromOther);
  const fromDiscountable = GainsDecimal.min(losses, g.discountable);
  const discountable = g.discountable.minus(fromDiscountable);
  losses = losses.minus(fromDiscountable);
  const discountApplied = discountable.times(discountRate);
  return {
    totalCurrentYearGains: g.discountable.plus(g.other),
    netCapitalGain: other.plus(discountable).minus(discountApplied),
    lossesCarriedForward: losses,
    discountApplied,
  };
}

/**
 * Canada: the inclusion rate of capital gains, 50%: "you will multiply your total capital gains
 * (or losses) by the inclusion rate. The inclusion rate for 2023 is 50%." (CRA, "Determining your
 * taxable capital gains (or losses)", https://www.canada.ca/en/revenue-agency/services/tax/individuals/topics/about-your-tax-return/tax-return/completing-a-tax-return/personal-income/line-127-capital-gains/completing-schedule-3/determining-your-taxable-capital-gains-losses.html;
 * the 2019 version of the page says the same for 2019). The stored sources do not cover a later
 * year's rate: check that page for the year filed.
 */
export const CA_INCLUSION_RATE = new GainsDecimal('0.5');

/**
 * Schedule 3's bottom line: total gains less losses, times the inclusion rate; a positive result
 * is the taxable capital gain (line 12700), a negative one the net capital loss of the year.
 *
 * @example
 * canadaTaxableCapitalGain(d('1000'), d('400')).taxableCapitalGain.toFixed(); // '300'
 */
export function canadaTaxableCapitalGain(gains: GainsDecimal, losses: GainsDecimal, rate = CA_INCLUSION_RATE): { net: GainsDecimal; taxableCapitalGain: GainsDecimal; netCapitalLoss: GainsDecimal } {
  const net = gains.minus(losses);
  const included = net.times(rate);
  return { net, taxableCapitalGain: included.gt(0) ? included : ZERO, netCapitalLoss: included.lt(0) ? included.neg() : ZERO };
}
