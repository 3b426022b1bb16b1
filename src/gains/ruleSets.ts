import { lotMatcher } from './lotMatcher.js';
import { ukShareMatcher } from './ukShareMatcher.js';
import { canadaMatcher } from './canadaMatcher.js';
import { oneYearAfter, yearStarting } from '../normalize/calendarDate.js';
import type { Match, Matcher } from './gainsEvent.js';
import type { LotSelections } from './lotSelections.js';
import { TradeledgerError } from '../errors.js';

/** The --rules values. */
export const ruleSetNames = ['uk', 'us', 'de', 'au', 'ca', 'fifo', 'lifo', 'hifo', 'average'] as const;
export type RuleSetName = (typeof ruleSetNames)[number];

/** How a rule set matches, classifies and dates its tax year. Sources: docs/gains.md. */
export interface RuleSet {
  name: RuleSetName;
  title: string;
  /** A fresh matcher; `pools` is the --pools choice, used where `pooling` is 'flag'. */
  matcher(pools: 'universal' | 'wallet', selections?: LotSelections): Matcher;
  /**
   * Who decides the pools lots are matched in. 'flag': the user, by --pools (one pool across
   * wallets, or one per account/wallet). 'rules': the rules themselves (UK: one section 104 pool
   * per person; US: one pool before 2025, one per wallet from it; Canada: one adjusted cost base
   * per person), so --pools is ignored and the run is stored with pools 'rules'.
   */
  pooling: 'flag' | 'rules';
  /** The return's own CSVs beyond gains, income and data quality, each from its query in reports/ (US: Form 8949). */
  forms: { query: string; file: string }[];
  /** Whether the rules let the user identify lots (--lots): the US only. */
  specificIdentification: boolean;
  /** The class a return asks for: short/long, exempt/taxable, discount/no-discount, or the UK matching rule. */
  classify(match: Match): string;
  /** Tax year Y as local dates, `to` exclusive. */
  taxYear(year: number): { from: string; to: string };
  /** Days after the year's end whose acquisitions can still match its disposals (UK 30-day rule). */
  lookaheadDays: number;
  /**
   * The zone days are counted in when --tz is not given: the country's one zone (uk:
   * Europe/London, de: Europe/Berlin); 'ask' where a country has several (us, ca, au), so --tz is
   * required; 'UTC' for the general methods, which belong to no country.
   */
  zone: string;
  /**
   * The currency the country's return is in, and the authority's words for it: a run in another
   * fiat is marked not ready to file (incompleteFigures.ts). Absent for the general methods.
   */
  currency?: { code: string; source: string };
}

/**
 * True when `later` is more than one year after `earlier`: the day after the anniversary or
 * later. This is the test of the US long term (IRS Pub. 544: "start counting on the day following
 * the day you acquired"; bought 15 June 2023, sold 15 June 2024 is not longer than one year),
 * of the German one-year period (§ 23 Abs. 1 Satz 1 Nr. 2 EStG: taxable when "nicht mehr als ein
 * Jahr") and of the Australian 12 months (ATO: acquired 2 February 2001, discount from
 * 3 February 2002). A 29 February acquisition has its anniversary on 28 February.
 *
 * @example
 * heldMoreThanOneYear('2023-06-15', '2024-06-15'); // false
 * heldMoreThanOneYear('2023-06-15', '2024-06-16'); // true
 */
export function heldMoreThanOneYear(earlier: string, later: string): boolean {
  let anniversary = anniversaries.get(earlier);
  if (anniversary === undefined) {
    anniversary = oneYearAfter(earlier);
    // One entry per acquisition day seen (a few thousand at most); asked once per match.
    if (anniversaries.size >= 100_000) anniversaries.clear();
    anniversaries.set(earlier, anniversary);
  }
  return later > anniversary;
}
const anniversaries = new Map<string, string>();

const calendarYear = (y: number) => yearStarting(y);
const shortOrLong = (m: Match) => (m.acquiredDay !== null && heldMoreThanOneYear(m.acquiredDay, m.disposedDay) ? 'long' : 'short');

/**
 * The rule sets by name.
 *
 * @example
 * const uk = ruleSet('uk'); uk.taxYear(2025); // { from: '2025-04-06', to: '2026-04-06' }
 */
export function ruleSet(name: RuleSetName): RuleSet {
  return ruleSets[name];
}

const ruleSets: Record<RuleSetName, RuleSet> = {
  // HMRC Cryptoassets Manual CRYPTO22200-CRYPTO22257; tax year 6 April to 5 April.
  uk: {
    name: 'uk', title: 'UK share pooling (same day, 30 days, section 104)',
    matcher: () => ukShareMatcher(),
    classify: (m) => m.basis,
    taxYear: (y) => yearStarting(y, '04-06'),
    lookaheadDays: 31,
    specificIdentification: false,
    zone: 'Europe/London',
    pooling: 'rules',
    forms: [],
    currency: { code: 'GBP', source: 'HMRC CRYPTO23000: "the value of any gain or loss must be converted into pound sterling on the Self-Assessment tax return" (https://www.gov.uk/hmrc-internal-manuals/cryptoassets-manual/crypto23000)' },
  },
  // IRS: short term when held one year or less (Pub. 544, Form 8949 Part I/II); FIFO unless units
  // are specifically identified (Treas. Reg. 1.1012-1(j)); wallet by wallet from 1 January 2025
  // (Rev. Proc. 2024-28), one universal pool before.
  us: {
    name: 'us', title: 'US FIFO, short/long term, per wallet from 2025',
    // Specific identification from a --lots file (lotSelections.ts, Treas. Reg. 1.1012-1(j)(3)).
    matcher: (_pools, selections) => lotMatcher({ method: 'fifo', pools: 'wallet', walletFromDay: '2025-01-01', selections }),
    specificIdentification: true,
    classify: shortOrLong,
    taxYear: calendarYear,
    lookaheadDays: 0,
    zone: 'ask',
    pooling: 'rules',
    forms: [{ query: 'gains-form-8949', file: 'form-8949.csv' }],
    currency: { code: 'USD', source: 'IRS, Foreign currency and currency exchange rates: "You must express the amounts you report on your U.S. tax return in U.S. dollars" (https://www.irs.gov/individuals/international-taxpayers/foreign-currency-and-currency-exchange-rates)' },
  },
  // § 23 Abs. 1 Satz 1 Nr. 2 EStG: taxable when held not more than one year; FIFO (§ 23 Abs. 1
  // Satz 1 Nr. 2 Satz 3 EStG for like currency amounts; the prevailing method for crypto units).
  de: {
    name: 'de', title: 'Germany FIFO, one-year holding period (§ 23 EStG)',
    matcher: (pools) => lotMatcher({ method: 'fifo', pools }),
    classify: (m) => (m.acquiredDay !== null && heldMoreThanOneYear(m.acquiredDay, m.disposedDay) ? 'exempt' : 'taxable'),
    taxYear: calendarYear,
    lookaheadDays: 0,
    specificIdentification: false,
    zone: 'Europe/Berlin',
    pooling: 'flag',
    forms: [],
    currency: { code: 'EUR', source: '§ 23 Abs. 3 Satz 5 EStG: the Freigrenze the year\'s net is held against is in euros (EUR 1,000 from 2024), as are the Anlage SO lines' },
  },
  // ATO: the 50% CGT discount when the asset was acquired at least 12 months before the CGT
  // event, not counting either day; income year 1 July to 30 June. Lots: FIFO, this tool's
  // choice (docs/gains.md), with --pools for one pool per wallet.
  au: {
    name: 'au', title: 'Australia FIFO with the 12-month CGT discount flag',
    matcher: (pools) => lotMatcher({ method: 'fifo', pools }),
    classify: (m) => (m.acquiredDay !== null && heldMoreThanOneYear(m.acquiredDay, m.disposedDay) ? 'discount' : 'no-discount'),
    taxYear: (y) => yearStarting(y, '07-01'),
    lookaheadDays: 0,
    specificIdentification: false,
    zone: 'ask',
    pooling: 'flag',
    forms: [],
    currency: { code: 'AUD', source: 'ATO, Crypto asset transactions: "To work out the value of your crypto assets when you acquire or dispose of them you will need to convert their value to Australian dollars" (https://www.ato.gov.au/individuals/investments-and-assets/crypto-asset-investments/transactions---acquiring-and-disposing-of-crypto-assets/crypto-asset-transactions)' },
  },
  // CRA: identical properties have one adjusted cost base, the average cost of all held; a
  // superficial loss (ITA s. 54, 40(2)(g)(i)) is denied and added to the substituted property's
  // cost (53(1)(f)), decided 30 days after the disposal (canadaMatcher.ts), so the run reads 30
  // days past the year's end.
  ca: {
    name: 'ca', title: 'Canada adjusted cost base (average cost), superficial losses denied',
    matcher: () => canadaMatcher(),
    classify: () => 'acb',
    taxYear: calendarYear,
    lookaheadDays: 30,
    specificIdentification: false,
    zone: 'ask',
    pooling: 'rules',
    forms: [],
    currency: { code: 'CAD', source: 'Income Tax Act s. 261(2); CRA 2014-0529961M4 on capital property sold in a foreign currency: "All amounts are converted to Canadian dollars, then the adjusted cost base and outlays and expenses are deducted from the proceeds of disposition" (https://taxinterpretations.com/cra/severed-letters/2014-0529961m4)' },
  },
  fifo: { name: 'fifo', title: 'FIFO', matcher: (pools) => lotMatcher({ method: 'fifo', pools }), classify: shortOrLong, taxYear: calendarYear, lookaheadDays: 0, specificIdentification: false, zone: 'UTC', pooling: 'flag', forms: [] },
  lifo: { name: 'lifo', title: 'LIFO', matcher: (pools) => lotMatcher({ method: 'lifo', pools }), classify: shortOrLong, taxYear: calendarYear, lookaheadDays: 0, specificIdentification: false, zone: 'UTC', pooling: 'flag', forms: [] },
  hifo: { name: 'hifo', title: 'HIFO', matcher: (pools) => lotMatcher({ method: 'hifo', pools }), classify: shortOrLong, taxYear: calendarYear, lookaheadDays: 0, specificIdentification: false, zone: 'UTC', pooling: 'flag', forms: [] },
  average: { name: 'average', title: 'Average cost', matcher: (pools) => lotMatcher({ method: 'average', pools }), classify: () => 'average', taxYear: calendarYear, lookaheadDays: 0, specificIdentification: false, zone: 'UTC', pooling: 'flag', forms: [] },
};

/**
 * The rule sets whose pools the user chooses (--pools), in --rules order.
 *
 * @example
 * poolingByFlag(); // ['de', 'au', 'fifo', 'lifo', 'hifo', 'average']
 */
export function poolingByFlag(): RuleSetName[] {
  return ruleSetNames.filter((name) => ruleSets[name].pooling === 'flag');
}

/** Some zones of each country with several (us, ca, au), for the message that asks for one. */
const zoneExamples: Partial<Record<RuleSetName, readonly string[]>> = {
  us: ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles'],
  ca: ['America/Toronto', 'America/Vancouver', 'America/Edmonton', 'America/Halifax'],
  au: ['Australia/Sydney', 'Australia/Melbourne', 'Australia/Brisbane', 'Australia/Perth'],
};

/**
 * The end of the hint that asks a country of several zones for one: an example, then the others
 * (the example not named twice, as it was before).
 *
 * @example
 * zoneSuggestion('au', '--tz '); // 'e.g. --tz Australia/Sydney (others: Australia/Melbourne, Australia/Brisbane, Australia/Perth)'
 */
export function zoneSuggestion(rules: RuleSetName, prefix = ''): string {
  const [first, ...others] = zoneExamples[rules] ?? ['UTC'];
  return `e.g. ${prefix}${first}${others.length > 0 ? ` (others: ${others.join(', ')})` : ''}`;
}

/**
 * The zone a run counts days in: --tz when given, else the rule set's own zone, with a line that
 * says which was taken. A country with several zones (us, ca, au) gets no default: a trade late
 * in the evening lands on another day in UTC, which can move it across a holding period's
 * anniversary or the end of the tax year, so the run stops and asks.
 *
 * @example
 * resolveZone('uk', undefined); // { tz: 'Europe/London', note: 'dates counted in Europe/London (the default for --rules uk; --tz to change)' }
 */
export function resolveZone(rules: RuleSetName, tz: string | undefined): { tz: string; note: string } {
  if (tz !== undefined && tz !== '') return { tz, note: `dates counted in ${tz} (--tz)` };
  const zone = ruleSets[rules].zone;
  if (zone === 'ask') {
    throw new TradeledgerError('GAINS_BAD_FLAG', `--rules ${rules} needs --tz: the country has several time zones, and the day a trade falls on decides holding periods and the tax year`, {
      kind: 'config', hint: `Add --tz with your zone, ${zoneSuggestion(rules, '--tz ')}.`,
    });
  }
  return { tz: zone, note: `dates counted in ${zone} (the default for --rules ${rules}; --tz to change)` };
}

/**
 * Each rule set with one zone of its own, as people read it (the gains form's note): 'uk
 * Europe/London, de Europe/Berlin, fifo UTC, ...'. us, ca and au have several and ask.
 *
 * @example
 * ruleZones(); // 'uk Europe/London, de Europe/Berlin, fifo UTC, lifo UTC, hifo UTC, average UTC'
 */
export function ruleZones(): string {
  return ruleSetNames.flatMap((r) => (ruleSets[r].zone === 'ask' ? [] : [`${r} ${ruleSets[r].zone}`])).join(', ');
}

/**
 * Each country rule set with its return's currency, as people read it: 'uk GBP, us USD, ...'
 * (the gains form's note and `gains --help`).
 *
 * @example
 * returnCurrencies(); // 'uk GBP, us USD, de EUR, au AUD, ca CAD'
 */
export function returnCurrencies(): string {
  return ruleSetNames.flatMap((r) => { const c = ruleSets[r].currency; return c ? [`${r} ${c.code}`] : []; }).join(', ');
}
