/**
 * The coin a spot trade delivers: the base coin on a buy, the quote coin on a sell. newFees
 * amounts c, r and t are in this coin (spec §2.3) but never name it.
 *
 * @example
 * receivedCoin('buy', 'BTC', 'USDT'); // 'BTC'
 */
export function receivedCoin(side: 'buy' | 'sell', baseCoin: string, quoteCoin: string): string {
  return side === 'buy' ? baseCoin : quoteCoin;
}
