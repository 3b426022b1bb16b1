import { Decimal } from 'decimal.js';
import type { World } from '../world.js';
import { priceMantissa, spotMarket, type SpotMarket } from './catalog.js';
import { decimalText } from './decimalText.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/**
 * Every granularity spelling the exchange's docs use (spot: 1min, 1h, 1day...; futures: 1m, 1H,
 * 1D...; UTC-aligned: 6Hutc...), with its length in ms (0 = a calendar month). The sandbox aligns
 * every candle to UTC.
 */
export const granularities: Readonly<Record<string, number>> = {
  '1min': MIN, '3min': 3 * MIN, '5min': 5 * MIN, '15min': 15 * MIN, '30min': 30 * MIN,
  '1h': HOUR, '4h': 4 * HOUR, '6h': 6 * HOUR, '12h': 12 * HOUR, '1day': DAY, '3day': 3 * DAY, '1week': 7 * DAY, '1M': 0,
  '6Hutc': 6 * HOUR, '12Hutc': 12 * HOUR, '1Dutc': DAY, '3Dutc': 3 * DAY, '1Wutc': 7 * DAY, '1Mutc': 0,
  '1m': MIN, '3m': 3 * MIN, '5m': 5 * MIN, '15m': 15 * MIN, '30m': 30 * MIN,
  '1H': HOUR, '4H': 4 * HOUR, '6H': 6 * HOUR, '12H': 12 * HOUR, '1D': DAY, '3D': 3 * DAY, '1W': 7 * DAY,
};

/**
 * How far back `market/candles` reaches per candle length, in days (api-notes.md "Market
 * candles"); longer candles reach back without limit. history-candles has no such limit.
 */
export function candleHorizonDays(lengthMs: number): number | undefined {
  if (lengthMs === 0 || lengthMs > 6 * HOUR) return undefined;
  if (lengthMs <= 5 * MIN) return 30;
  if (lengthMs <= 15 * MIN) return 52;
  if (lengthMs <= 30 * MIN) return 62;
  if (lengthMs <= HOUR) return 83;
  if (lengthMs <= 4 * HOUR) return 240;
  return 360;
}

/** Open time of the candle holding t. Weeks start on Monday (the epoch was a Thursday). */
export function candleStart(t: number, lengthMs: number): number {
  if (lengthMs === 0) {
    const d = new Date(t);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
  const offset = lengthMs === 7 * DAY ? 4 * DAY : 0;
  return Math.floor((t - offset) / lengthMs) * lengthMs + offset;
}

/** Open time of the candle after the one opening at `start`. */
export function nextCandle(start: number, lengthMs: number): number {
  if (lengthMs === 0) {
    const d = new Date(start);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
  return start + lengthMs;
}

function previousCandle(start: number, lengthMs: number): number {
  if (lengthMs === 0) {
    const d = new Date(start);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1);
  }
  return start - lengthMs;
}

/** The candle opens wanted: at most `limit`, the newest with from <= open <= to, oldest first. */
export function candleOpens(from: number, to: number, lengthMs: number, limit: number): number[] {
  const opens: number[] = [];
  for (let t = candleStart(to, lengthMs); t >= from && opens.length < limit; t = previousCandle(t, lengthMs)) {
    if (t < 0) break;
    opens.push(t);
  }
  return opens.reverse();
}

interface FillMark { t: number; price: Decimal; size: Decimal; amount: Decimal }

/**
 * Candles of one market as the API answers them: `[ts, open, high, low, close, baseVolume,
 * quoteVolume, usdtVolume]`, all strings, oldest first. Prices follow the world's market wave;
 * high and low are widened to take in every fill of the market in the candle (of every account,
 * including fills placed through E1), so every fill price lies within its candle's low..high.
 * A candle still open at `now` closes at the current price.
 *
 * @example
 * marketCandles(world, spotMarket('BTCUSDT')!, [t0], 3_600_000, Date.now());
 */
export function marketCandles(world: World, m: SpotMarket, opens: readonly number[], lengthMs: number, now: number): string[][] {
  if (opens.length === 0) return [];
  const first = opens[0]!;
  const end = Math.min(nextCandle(opens[opens.length - 1]!, lengthMs), now + 1);
  const fills = fillsOf(world, m.symbol, first, end);
  const usdtPrice = spotMarket(`${m.quote}USDT`);
  const out: string[][] = [];
  let f = 0;
  for (const open of opens) {
    if (open > now) break;
    const close = Math.min(nextCandle(open, lengthMs), now);
    let hi = Math.max(priceMantissa(m, open), priceMantissa(m, close));
    let lo = Math.min(priceMantissa(m, open), priceMantissa(m, close));
    for (let k = 1; k < 8; k++) {
      const p = priceMantissa(m, open + ((close - open) * k) / 8);
      hi = Math.max(hi, p);
      lo = Math.min(lo, p);
    }
    let high = new Decimal(decimalText(Math.ceil(hi * 1.004), m.pricePlace));
    let low = new Decimal(decimalText(Math.max(1, Math.floor(lo * 0.996)), m.pricePlace));
    // A deterministic market volume besides our own fills, so volumes are never all zero.
    let base = new Decimal(decimalText(1000 + ((open / MIN) % 997), 2));
    let quote = base.mul(decimalText(priceMantissa(m, close), m.pricePlace));
    while (f < fills.length && fills[f]!.t < open) f++;
    for (; f < fills.length && fills[f]!.t < nextCandle(open, lengthMs); f++) {
      const x = fills[f]!;
      if (x.price.gt(high)) high = x.price;
      if (x.price.lt(low)) low = x.price;
      base = base.add(x.size);
      quote = quote.add(x.amount);
    }
    const quoteText = quote.toFixed(m.pricePlace);
    const usdt = m.quote === 'USDT' ? quoteText : usdtPrice === undefined ? quoteText : quote.mul(decimalText(priceMantissa(usdtPrice, close), usdtPrice.pricePlace)).toFixed(2);
    out.push([
      String(open), decimalText(priceMantissa(m, open), m.pricePlace), high.toFixed(), low.toFixed(),
      decimalText(priceMantissa(m, close), m.pricePlace), base.toFixed(), quoteText, usdt,
    ]);
  }
  return out;
}

function fillsOf(world: World, symbol: string, from: number, to: number): FillMark[] {
  const marks: FillMark[] = [];
  for (const account of world.accounts) {
    if (account.demo) continue;
    const fills = world.series(account.uid, 'spotFills', 'all').query({
      startTime: from, endTime: to, limit: Number.MAX_SAFE_INTEGER, where: [['symbol', symbol]], filter: (r) => r.symbol === symbol,
    });
    for (const r of fills) {
      if (!/^\d+(\.\d+)?$/.test(r.priceAvg)) continue;
      marks.push({ t: Number(r.cTime), price: new Decimal(r.priceAvg), size: new Decimal(r.size || '0'), amount: new Decimal(r.amount || '0') });
    }
  }
  return marks.sort((a, b) => a.t - b.t);
}
