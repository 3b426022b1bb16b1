import type { HistoryResource } from '../world.js';

/**
 * How many records each account gets per resource, from the `--scale` text.
 *
 * Syntax: comma-separated terms, each a preset name or `resource=count`:
 * - presets: `tiny` (~400 records per account), `small` (~5,000 per account, the default),
 *   `medium` (~100,000 in total), `large` (~1,000,000 in total), `xl` (~5,000,000 in total);
 * - `spotOrders=200000`: that many records of that resource for every account that has it,
 *   spread over its partitions (product types, margin types); spot bills are not counted but
 *   derived, one per spot movement (three per fill: base, quote, fee), so a world holds more
 *   records than its preset says;
 * - `subAccounts=N`: the number of sub-accounts of the main account (0-20, default 3).
 * Counts override the preset named before or after them. Counts alone start from an empty world,
 * so `spotOrders=200000,deposits=1000` holds only those two resources.
 *
 * @example
 * parseScale('small');                       // default world
 * parseScale('tiny,transfers=500');          // tiny, with 500 transfers per account
 */
export interface ScalePlan {
  /** Per account, per resource; split evenly over the account's partitions. */
  perAccount: Record<HistoryResource, number>;
  /** Extra per-resource count for the demo account (futures only). */
  demoPerAccount: Record<HistoryResource, number>;
  subAccounts: number;
  /**
   * Whether the last few records of every series may be open however old they are (so even a
   * sparse series shows each open status: test worlds, `tiny` and explicit counts). The presets
   * from `small` up are what a user sees (the demo): there only records made in the last two days
   * of the world are still in flight, as on a live account.
   */
  staleOpen?: boolean;
}

export const resourceWeights: Readonly<Record<HistoryResource, number>> = {
  spotOrders: 16, spotFills: 14, spotBills: 12, marginRecords: 8, crossMarginOrders: 4,
  futuresOrders: 12, futuresFills: 9, futuresBills: 9, planOrders: 3,
  deposits: 3, withdrawals: 2, transfers: 4, taxSpotRecords: 2, taxFutureRecords: 2,
};

export const historyResources = Object.keys(resourceWeights) as HistoryResource[];
/** Resources whose records are derived from the others' (spot bills: one per spot movement), never counted. */
export const derivedResources: readonly HistoryResource[] = ['spotBills'];
const futuresResources: readonly HistoryResource[] = ['futuresOrders', 'futuresFills', 'futuresBills', 'planOrders'];

/**
 * True for the resources partitioned by product type.
 *
 * @example
 * isFuturesResource('planOrders'); // true
 */
export function isFuturesResource(r: HistoryResource): boolean {
  return futuresResources.includes(r);
}

const presetPerAccount: Record<string, (accounts: number) => number> = {
  tiny: () => 400,
  small: () => 5_000,
  medium: (n) => 100_000 / n,
  large: (n) => 1_000_000 / n,
  xl: (n) => 5_000_000 / n,
};

/** Thrown for a scale text that cannot be read; the message names the bad term and the fix. */
export class ScaleError extends Error {
  override name = 'ScaleError';
}

function split(total: number, demo: boolean): Record<HistoryResource, number> {
  const eligible = historyResources.filter((r) => !demo || isFuturesResource(r));
  const weightSum = eligible.reduce((s, r) => s + resourceWeights[r], 0);
  const out = Object.fromEntries(historyResources.map((r) => [r, 0])) as Record<HistoryResource, number>;
  for (const r of eligible) out[r] = Math.round((total * resourceWeights[r]) / weightSum);
  // Spot bills are not drawn: one is derived from every spot movement (spotLegs.ts), so their
  // running balances are the sums of the history. The other counts keep their share.
  for (const r of derivedResources) out[r] = 0;
  return out;
}

/**
 * Parses a scale text (syntax above) into per-account counts. `clientAccounts` (a firm's extra
 * main accounts) share the preset totals of medium, large and xl with the others.
 *
 * @example
 * parseScale('tiny,spotOrders=1000').perAccount.spotOrders; // 1000
 */
export function parseScale(text: string, defaultSubs = 3, clientAccounts = 0): ScalePlan {
  const terms = text.split(',').map((t) => t.trim()).filter((t) => t !== '');
  let subAccounts = defaultSubs;
  let preset: string | undefined;
  const counts = new Map<HistoryResource, number>();
  for (const term of terms) {
    const eq = term.indexOf('=');
    if (eq < 0) {
      if (presetPerAccount[term] === undefined) {
        throw new ScaleError(`unknown scale preset '${term}': use tiny, small, medium, large or xl, or resource=count`);
      }
      preset = term;
      continue;
    }
    const name = term.slice(0, eq);
    const value = term.slice(eq + 1);
    if (!/^\d{1,9}$/.test(value)) throw new ScaleError(`scale term '${term}': the count must be a whole number`);
    const n = Number(value);
    if (name === 'subAccounts') {
      if (n > 20) throw new ScaleError(`scale term '${term}': a main account has at most 20 sub-accounts`);
      subAccounts = n;
    } else if ((derivedResources as string[]).includes(name)) {
      throw new ScaleError(`scale term '${term}': ${name} are derived from the spot movements (fills, deposits, withdrawals, transfers); scale those instead, e.g. spotFills=${value}`);
    } else if ((historyResources as string[]).includes(name)) {
      counts.set(name as HistoryResource, n);
    } else {
      throw new ScaleError(`scale term '${term}': unknown resource '${name}'; use one of ${historyResources.join(', ')} or subAccounts`);
    }
  }
  if (preset === undefined && counts.size === 0) preset = 'small';
  const historyAccounts = subAccounts + 3 + clientAccounts;
  const total = preset === undefined ? 0 : presetPerAccount[preset]!(historyAccounts);
  const perAccount = split(total, false);
  const demoPerAccount = split(total, true);
  for (const [r, n] of counts) {
    perAccount[r] = n;
    demoPerAccount[r] = isFuturesResource(r) ? n : 0;
  }
  return { perAccount, demoPerAccount, subAccounts, staleOpen: preset === undefined || preset === 'tiny' };
}
