/** One history-candles request: the candles opening in [endTime - limit hours, endTime). */
export interface CandleRequest {
  readonly symbol: string;
  readonly endTime: number;
  readonly from: number;
}

const HOUR = 3_600_000;

/**
 * The fewest history-candles requests (200 hourly candles each) that cover every hour a symbol
 * still needs: from the newest needed hour backwards, each request takes the 200 hours ending
 * with it, and the next starts at the newest hour that request left out.
 *
 * @example
 * candleRequests('BTCUSDT', [t, t + 3_600_000], 200); // [{ symbol: 'BTCUSDT', endTime: t + 7_200_000, from: ... }]
 */
export function candleRequests(symbol: string, hours: readonly number[], limit: number): CandleRequest[] {
  const sorted = [...hours].sort((a, b) => b - a);
  const out: CandleRequest[] = [];
  let i = 0;
  while (i < sorted.length) {
    const endTime = sorted[i]! + HOUR;
    const from = endTime - limit * HOUR;
    out.push({ symbol, endTime, from });
    while (i < sorted.length && sorted[i]! >= from) i++;
  }
  return out;
}
