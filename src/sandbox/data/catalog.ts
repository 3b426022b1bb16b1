import type { CoinInfo, SymbolInfo } from '../../api/records/public.js';
import type { ProductType } from '../../api/endpoints.js';

/** A spot market the world trades: base price as an integer mantissa at `pricePlace`. */
export interface SpotMarket {
  symbol: string; base: string; quote: string; pricePlace: number; qtyPlace: number; basePrice: number;
}

export const spotMarkets: readonly SpotMarket[] = [
  { symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', pricePlace: 2, qtyPlace: 6, basePrice: 6_500_000 },
  { symbol: 'ETHUSDT', base: 'ETH', quote: 'USDT', pricePlace: 2, qtyPlace: 4, basePrice: 320_000 },
  { symbol: 'SOLUSDT', base: 'SOL', quote: 'USDT', pricePlace: 3, qtyPlace: 3, basePrice: 150_000 },
  { symbol: 'BGBUSDT', base: 'BGB', quote: 'USDT', pricePlace: 4, qtyPlace: 2, basePrice: 12_000 },
  { symbol: 'XRPUSDT', base: 'XRP', quote: 'USDT', pricePlace: 5, qtyPlace: 1, basePrice: 55_000 },
  { symbol: 'LTCUSDT', base: 'LTC', quote: 'USDT', pricePlace: 2, qtyPlace: 4, basePrice: 8_000 },
  { symbol: 'TRXUSDT', base: 'TRX', quote: 'USDT', pricePlace: 6, qtyPlace: 1, basePrice: 120_000 },
  { symbol: 'DOGEUSDT', base: 'DOGE', quote: 'USDT', pricePlace: 5, qtyPlace: 0, basePrice: 15_000 },
  { symbol: 'ETHBTC', base: 'ETH', quote: 'BTC', pricePlace: 6, qtyPlace: 4, basePrice: 50_000 },
  { symbol: 'BTCUSDC', base: 'BTC', quote: 'USDC', pricePlace: 2, qtyPlace: 6, basePrice: 6_500_000 },
  // A real-world oddity: a symbol with `$` in its name, which must survive query signing.
  { symbol: '$WIFUSDT', base: '$WIF', quote: 'USDT', pricePlace: 4, qtyPlace: 2, basePrice: 25_000 },
];

/** The platform coin: fees deducted in it are the `d` of newFees. */
export const platformCoin = 'BGB';

const DAY = 86_400_000;

/**
 * The market price mantissa of a market at time t: a slow deterministic wave around the base price.
 *
 * @example
 * priceMantissa(spotMarket('BTCUSDT')!, Date.now()); // e.g. 7012345 (= 70123.45)
 */
export function priceMantissa(m: { basePrice: number }, t: number): number {
  const f = 1 + 0.3 * Math.sin((2 * Math.PI * t) / (211 * DAY)) + 0.06 * Math.sin((2 * Math.PI * t) / (13 * DAY));
  return Math.max(1, Math.round(m.basePrice * f));
}

/**
 * The spot market of a symbol, or undefined.
 *
 * @example
 * spotMarket('$WIFUSDT')?.base; // '$WIF'
 */
export function spotMarket(symbol: string): SpotMarket | undefined {
  return spotMarkets.find((m) => m.symbol === symbol);
}

interface ChainSpec { chain: string; needTag?: boolean; withdrawFee: string; min: string }
const coinChains: Record<string, ChainSpec[]> = {
  BTC: [{ chain: 'BTC', withdrawFee: '0.0002', min: '0.001' }, { chain: 'BEP20', withdrawFee: '0.00001', min: '0.0001' }],
  ETH: [{ chain: 'ERC20', withdrawFee: '0.002', min: '0.01' }, { chain: 'ArbitrumOne', withdrawFee: '0.0001', min: '0.001' }],
  USDT: [{ chain: 'TRC20', withdrawFee: '1', min: '10' }, { chain: 'ERC20', withdrawFee: '3.5', min: '10' }, { chain: 'BEP20', withdrawFee: '0.29', min: '10' }],
  USDC: [{ chain: 'ERC20', withdrawFee: '3', min: '10' }, { chain: 'SOL', withdrawFee: '1', min: '5' }],
  BGB: [{ chain: 'ERC20', withdrawFee: '5', min: '10' }],
  SOL: [{ chain: 'SOL', withdrawFee: '0.008', min: '0.1' }],
  XRP: [{ chain: 'XRP', needTag: true, withdrawFee: '0.2', min: '10' }],
  LTC: [{ chain: 'LTC', withdrawFee: '0.001', min: '0.01' }],
  TRX: [{ chain: 'TRC20', withdrawFee: '1', min: '10' }],
  DOGE: [{ chain: 'DOGE', withdrawFee: '4', min: '20' }],
  $WIF: [{ chain: 'SOL', withdrawFee: '0.5', min: '5' }],
};

/** Coins known to deposits, withdrawals and transfers. */
export const walletCoins: readonly string[] = Object.keys(coinChains);

/**
 * The withdrawal chains of a coin (fees, minimums, tags).
 *
 * @example
 * chainsOf('USDT').map((c) => c.chain); // ['TRC20', 'ERC20', 'BEP20']
 */
export function chainsOf(coin: string): readonly ChainSpec[] {
  return coinChains[coin] ?? [];
}

/**
 * X9 public coins.
 *
 * @example
 * coinList().find((c) => c.coin === 'XRP')?.chains[0]?.needTag; // 'true'
 */
export function coinList(): CoinInfo[] {
  return walletCoins.map((coin, i) => ({
    coinId: String(i + 1),
    coin,
    transfer: 'true',
    chains: chainsOf(coin).map((c) => ({
      chain: c.chain, needTag: c.needTag === true ? 'true' : 'false', withdrawable: 'true', rechargeable: 'true',
      withdrawFee: c.withdrawFee, minWithdrawAmount: c.min,
    })),
  }));
}

/**
 * X10 public symbols.
 *
 * @example
 * symbolList().some((s) => s.symbol === '$WIFUSDT'); // true
 */
export function symbolList(): SymbolInfo[] {
  return spotMarkets.map((m) => ({
    symbol: m.symbol, baseCoin: m.base, quoteCoin: m.quote, minTradeAmount: '0', maxTradeAmount: '10000000000',
    takerFeeRate: '0.001', makerFeeRate: '0.001', pricePrecision: String(m.pricePlace),
    quantityPrecision: String(m.qtyPlace), quotePrecision: String(m.pricePlace), status: 'online',
  }));
}

/** A futures contract of one product type. */
export interface FuturesMarket {
  symbol: string; base: string; quote: string; marginCoins: string[]; pricePlace: number; volumePlace: number; basePrice: number;
}

const usdt = (b: string, p: number, v: number, price: number): FuturesMarket =>
  ({ symbol: `${b}USDT`, base: b, quote: 'USDT', marginCoins: ['USDT'], pricePlace: p, volumePlace: v, basePrice: price });

/** Contracts per product type; demo types carry S-prefixed coins and symbols (spec §4). */
export const futuresMarkets: Record<ProductType, readonly FuturesMarket[]> = {
  'USDT-FUTURES': [usdt('BTC', 1, 3, 650_000), usdt('ETH', 2, 2, 320_000), usdt('SOL', 3, 1, 150_000), usdt('XRP', 4, 0, 5_500)],
  'USDC-FUTURES': [
    { symbol: 'BTCPERP', base: 'BTC', quote: 'USDC', marginCoins: ['USDC'], pricePlace: 1, volumePlace: 3, basePrice: 650_000 },
    { symbol: 'ETHPERP', base: 'ETH', quote: 'USDC', marginCoins: ['USDC'], pricePlace: 2, volumePlace: 2, basePrice: 320_000 },
  ],
  'COIN-FUTURES': [
    { symbol: 'BTCUSD', base: 'BTC', quote: 'USD', marginCoins: ['BTC', 'ETH', 'USDT'], pricePlace: 1, volumePlace: 3, basePrice: 650_000 },
    { symbol: 'ETHUSD', base: 'ETH', quote: 'USD', marginCoins: ['ETH', 'BTC'], pricePlace: 2, volumePlace: 2, basePrice: 320_000 },
  ],
  'SUSDT-FUTURES': [
    { symbol: 'SBTCSUSDT', base: 'SBTC', quote: 'SUSDT', marginCoins: ['SUSDT'], pricePlace: 1, volumePlace: 3, basePrice: 650_000 },
    { symbol: 'SETHSUSDT', base: 'SETH', quote: 'SUSDT', marginCoins: ['SUSDT'], pricePlace: 2, volumePlace: 2, basePrice: 320_000 },
    { symbol: 'SEOSSUSDT', base: 'SEOS', quote: 'SUSDT', marginCoins: ['SUSDT'], pricePlace: 4, volumePlace: 1, basePrice: 7_000 },
  ],
  'SUSDC-FUTURES': [
    { symbol: 'SBTCSPERP', base: 'SBTC', quote: 'SUSDC', marginCoins: ['SUSDC'], pricePlace: 1, volumePlace: 3, basePrice: 650_000 },
    { symbol: 'SETHSPERP', base: 'SETH', quote: 'SUSDC', marginCoins: ['SUSDC'], pricePlace: 2, volumePlace: 2, basePrice: 320_000 },
  ],
  'SCOIN-FUTURES': [
    { symbol: 'SBTCSUSD', base: 'SBTC', quote: 'SUSD', marginCoins: ['SBTC', 'SETH', 'SUSDT'], pricePlace: 1, volumePlace: 3, basePrice: 650_000 },
    { symbol: 'SETHSUSD', base: 'SETH', quote: 'SUSD', marginCoins: ['SETH', 'SBTC'], pricePlace: 2, volumePlace: 2, basePrice: 320_000 },
  ],
};

/**
 * Margin coins that hold a futures account per product type.
 *
 * @example
 * marginCoinsOf('COIN-FUTURES'); // ['BTC', 'ETH', 'USDT']
 */
export function marginCoinsOf(productType: ProductType): string[] {
  return [...new Set(futuresMarkets[productType].flatMap((m) => m.marginCoins))];
}
