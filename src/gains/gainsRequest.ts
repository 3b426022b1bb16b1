import { TradeledgerError } from '../errors.js';
import { fieldWords } from '../fieldWords.js';
import { timeZone } from '../normalize/timeZone.js';
import { resolveZone, ruleSet, ruleSetNames, zoneSuggestion } from './ruleSets.js';
import type { RuleSetName } from './ruleSets.js';
import { isFiatCode } from '../imports/currencyCodes.js';

/** The --pools choices: one pool across wallets, or one per account/wallet. */
export const poolChoices = ['universal', 'wallet'] as const;
export type PoolChoice = (typeof poolChoices)[number];

/**
 * One gains run as `tradeledger gains` and the portal's gains form ask for it, checked once, by
 * {@link parseGainsRequest}.
 */
export interface GainsRequest {
  rules: RuleSetName;
  /** The tax year (UK: the one starting 6 April of it; Australia: 1 July). */
  year: number;
  /** Upper case, as the folder name and every file say it. */
  fiat: string;
  /** The IANA zone days are counted in, canonically spelt (`europe/london` -> `Europe/London`). */
  tz: string;
  /** One account uid or imported wallet name, or '' for every account. */
  account: string;
  /** The --pools choice; rule sets whose rules fix the pooling ignore it (`RuleSet.pooling`). */
  pools: PoolChoice;
  /** Demo-trading (paper) accounts included, valued 0 (`--include-demo`; the form's checkbox). */
  includeDemo: boolean;
}

/** The fields as they arrive: the CLI's flags or the portal's form, still text. */
export interface GainsRequestInput {
  rules?: string;
  year?: string;
  fiat?: string;
  tz?: string;
  account?: string;
  pools?: string;
  includeDemo?: boolean;
}

/**
 * Who asks. The CLI's messages name its flags (`--year "25"`), the portal's its form's fields
 * (`year "25"`). Without a zone, a rule set of a country with several (us, ca, au) makes both stop
 * and ask (resolveZone; the portal in its form's words). Without a fiat, both take the rule set's
 * return currency (uk GBP, us USD, ...; RuleSet.currency), so that the defaults give the return's
 * own figures; for the rules of no country (fifo, lifo, hifo, average) the CLI stops and asks, the
 * portal's form takes USD (the exchange's own, needing no FX rates).
 */
export type GainsAsker = 'cli' | 'portal';

/**
 * Reads and checks a gains request (rules, year, fiat, zone, account, pools, demo) with the same
 * rules and messages for the CLI and the portal; `zoneNote` says which zone was taken and why.
 * Throws GAINS_BAD_FLAG config errors.
 *
 * @example
 * parseGainsRequest({ rules: 'uk', year: '2025', fiat: 'gbp', tz: 'europe/london' }, 'cli').request;
 * // { rules: 'uk', year: 2025, fiat: 'GBP', tz: 'Europe/London', account: '', pools: 'universal', includeDemo: false }
 */
export function parseGainsRequest(input: GainsRequestInput, asker: GainsAsker): { request: GainsRequest; zoneNote: string; fiatNote?: string } {
  const { name, example } = fieldWords(asker === 'cli');
  const rules = input.rules ?? '';
  if (!(ruleSetNames as readonly string[]).includes(rules)) {
    throw bad(`${name('rules')} "${rules}" is not one of ${ruleSetNames.join(', ')}`, 'Pick the rules from the list.');
  }
  const year = input.year ?? '';
  if (!/^\d{4}$/.test(year)) throw bad(`${name('year')} "${year}" is not a four-digit year`, `Write the tax year as four digits, e.g. ${example('year', '2025')}.`);
  const returnCurrency = ruleSet(rules as RuleSetName).currency?.code;
  const fiatGiven = input.fiat !== undefined && input.fiat.trim() !== '';
  if (!fiatGiven && asker === 'cli' && returnCurrency === undefined) {
    throw bad(`--fiat is needed with --rules ${rules}: those rules belong to no country, so no currency is theirs`,
      'Give the currency of every value, e.g. --fiat USD (any other needs `tradeledger import fx`).');
  }
  const fiat = fiatGiven ? input.fiat!.trim() : returnCurrency ?? 'USD';
  if (!isFiatCode(fiat)) throw bad(`${name('fiat')} "${fiat}" is not an ISO 4217 currency code`, 'Use a currency code such as GBP, USD or EUR.');
  const pools = input.pools === undefined || input.pools === '' ? 'universal' : input.pools;
  if (!(poolChoices as readonly string[]).includes(pools)) {
    throw bad(`${name('pools')} "${pools}" is not one of ${poolChoices.join(', ')}`, 'universal: one pool across wallets; wallet: one per account or wallet.');
  }
  const given = input.tz === undefined || input.tz === '' ? undefined : timeZone(input.tz, 'GAINS_BAD_FLAG', name('tz'));
  // A country of several zones gets none by default, from the form as from the CLI (resolveZone):
  // the portal counted such a run in UTC, where a trade late in a US evening lands on the next day.
  if (given === undefined && asker === 'portal' && ruleSet(rules as RuleSetName).zone === 'ask') {
    throw bad(`the ${rules} rules need a time zone: the country has several, and the day a trade falls on decides holding periods and the tax year`,
      `Fill in Time zone with yours, ${zoneSuggestion(rules as RuleSetName)}.`);
  }
  const zone = resolveZone(rules as RuleSetName, given);
  return {
    request: {
      rules: rules as RuleSetName, year: Number(year), fiat: fiat.toUpperCase(), tz: zone.tz, account: input.account ?? '',
      pools: pools as PoolChoice, includeDemo: input.includeDemo ?? false,
    },
    zoneNote: zone.note,
    ...(fiatGiven ? {} : { fiatNote: `values in ${fiat} (the ${rules} return's currency, the default; --fiat to change)` }),
  };
}

/**
 * The folder name of a gains run: <year>-<rules>-<FIAT>.
 *
 * @example
 * gainsLabel({ year: 2025, rules: 'uk', fiat: 'gbp' }); // '2025-uk-GBP'
 */
export function gainsLabel(request: Pick<GainsRequest, 'year' | 'rules' | 'fiat'>): string {
  return `${request.year}-${request.rules}-${request.fiat.toUpperCase()}`;
}

/**
 * The CSVs a gains run writes, each from its query in reports/, in the order written: the three
 * every rule set writes, then the rule set's return forms (US: Form 8949).
 *
 * @example
 * gainsCsvFiles('us').map((f) => f.file); // ['gains.csv', 'income.csv', 'gains-data-quality.csv', 'form-8949.csv']
 */
export function gainsCsvFiles(rules: RuleSetName): { query: string; file: string }[] {
  return [
    { query: 'gains', file: 'gains.csv' },
    { query: 'gains-income', file: 'income.csv' },
    { query: 'gains-data-quality', file: 'gains-data-quality.csv' },
    ...ruleSet(rules).forms,
  ];
}

/**
 * Every file a gains folder holds for a rule set, in the order runGains writes them.
 *
 * @example
 * gainsFiles('us'); // ['gains.csv', 'income.csv', 'gains-data-quality.csv', 'form-8949.csv', 'summary.json', 'summary.txt', 'manifest.json']
 */
export function gainsFiles(rules: RuleSetName): string[] {
  return [...gainsCsvFiles(rules).map((f) => f.file), 'summary.json', 'summary.txt', 'manifest.json'];
}

/**
 * The tax year's first and last-plus-one day under the request's rules (UK: 6 April).
 *
 * @example
 * gainsPeriod({ rules: 'uk', year: 2025 }); // { from: '2025-04-06', to: '2026-04-06' }
 */
export function gainsPeriod(request: Pick<GainsRequest, 'rules' | 'year'>): { from: string; to: string } {
  return ruleSet(request.rules).taxYear(request.year);
}

function bad(message: string, hint: string): TradeledgerError {
  return new TradeledgerError('GAINS_BAD_FLAG', message, { kind: 'config', hint });
}
