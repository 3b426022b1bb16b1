import { GainsDecimal } from '../../src/gains/gainsDecimal.js';
import type { Acquisition, Disposal, GainsEvent, Match, Matcher, Move } from '../../src/gains/gainsEvent.js';

let clock = 0;
const tsOf = (day: string) => Date.parse(`${day}T12:00:00Z`) + (clock++ % 1000);

/** An acquisition of `quantity` `asset` on `day` costing `cost` (fiat, fees included). */
export function buy(day: string, asset: string, quantity: string, cost: string, pool = 'a', ref = `buy ${day} ${quantity}`): Acquisition {
  return { type: 'acquire', asset, quantity: new GainsDecimal(quantity), cost: new GainsDecimal(cost), ts: tsOf(day), day, pool, ref };
}

/** A disposal of `quantity` `asset` on `day` for `proceeds` (fiat, fees taken off). */
export function sell(day: string, asset: string, quantity: string, proceeds: string, pool = 'a', ref = `sell ${day} ${quantity}`): Disposal {
  return { type: 'dispose', asset, quantity: new GainsDecimal(quantity), proceeds: new GainsDecimal(proceeds), ts: tsOf(day), day, pool, ref };
}

/** An own-account move. */
export function move(day: string, asset: string, quantity: string, from: string, to: string): Move {
  return { type: 'move', asset, quantity: new GainsDecimal(quantity), ts: tsOf(day), day, pool: from, toPool: to, ref: `move ${day}` };
}

/** Runs a matcher over events and returns every match. */
export function run(matcher: Matcher, events: GainsEvent[]): Match[] {
  return events.flatMap((e) => matcher.push(e)).concat(matcher.finish());
}

/** A sum of consideration to the nearest pound (HMRC's examples state whole pounds). */
export function pounds(value: GainsDecimal): number {
  return Number(value.toDecimalPlaces(0, GainsDecimal.ROUND_HALF_UP).toFixed(0));
}

/**
 * HMRC's rounding of an allowable cost in the CRYPTO2225x examples: up to the whole pound
 * (CRYPTO22252: £937.50 as £938; CRYPTO22254: £62.50 as £63; CRYPTO22256: £345,000 x 100,000 /
 * 110,000 = £313,636.36 as £313,637), the gain being the consideration less the rounded costs,
 * and a pool keeping the rest of its cost (CRYPTO22252: £1,000 - £938 = £62 into the pool).
 */
export function costPounds(value: GainsDecimal): number {
  return Number(value.toDecimalPlaces(0, GainsDecimal.ROUND_CEIL).toFixed(0));
}

/** A compact view of matches for assertions: [disposed day, basis, quantity, proceeds, cost (to the pound)]. */
export function summary(matches: Match[]): [string, string, string, number, number][] {
  return matches.map((m) => [m.disposedDay, m.basis, m.quantity.toFixed(), pounds(m.proceeds), costPounds(m.cost)]);
}
