import { Decimal } from 'decimal.js';
import { demoProductTypes, productTypes, type ProductType } from '../../../api/endpoints.js';
import { futuresMarkets, priceMantissa } from '../catalog.js';
import { decimalText, mulText } from '../decimalText.js';
import { feeOf } from '../generators/tradeAmounts.js';
import { hashKey, recordRng } from '../rng.js';
import { fail, oneOf, positiveDecimal, required } from './writeChecks.js';
import type { WorldCore } from './worldCore.js';

const allTypes: readonly ProductType[] = [...productTypes, ...demoProductTypes];

/**
 * E3 futures placement. A demo account trades only demo product types and a real one only real
 * types (40099 otherwise); symbol and margin coin must be a matching pair (SBTCSUSDT with SUSDT).
 * The sandbox fills the order at once: it appears in futuresOrders (filled) with a futures fill
 * and an open/close bill.
 *
 * @example
 * placeFuturesOrder(core, demoUid, { symbol: 'SBTCSUSDT', productType: 'SUSDT-FUTURES', marginMode: 'isolated',
 *   marginCoin: 'SUSDT', size: '0.01', side: 'buy', tradeSide: 'open', orderType: 'market' });
 */
export function placeFuturesOrder(core: WorldCore, uid: string, order: Record<string, string | undefined>): { orderId: string; clientOid: string } {
  const account = core.account(uid) ?? fail('40034', 'uid');
  const ptText = required(order, 'productType').toUpperCase();
  if (!(allTypes as readonly string[]).includes(ptText)) fail('40034', 'productType');
  const productType = ptText as ProductType;
  if ((demoProductTypes as readonly string[]).includes(productType) !== account.demo) fail('40099');
  const symbol = required(order, 'symbol');
  const market = futuresMarkets[productType].find((m) => m.symbol === symbol)
    ?? fail('40017', `symbol '${symbol}' is not a ${productType} contract${account.demo ? ' (demo symbols look like SBTCSUSDT)' : ''}`);
  const marginCoin = required(order, 'marginCoin');
  if (!market.marginCoins.includes(marginCoin)) {
    fail('40017', `marginCoin '${marginCoin}' does not match symbol ${symbol}; use ${market.marginCoins.join(' or ')}`);
  }
  const marginMode = oneOf(required(order, 'marginMode'), 'marginMode', ['isolated', 'crossed'] as const);
  const side = oneOf(required(order, 'side'), 'side', ['buy', 'sell'] as const);
  const orderType = oneOf(required(order, 'orderType'), 'orderType', ['limit', 'market'] as const);
  const tradeSide = order['tradeSide'] === undefined ? undefined : oneOf(order['tradeSide'], 'tradeSide', ['open', 'close'] as const);
  const force = orderType === 'limit' ? oneOf(order['force'] ?? 'gtc', 'force', ['ioc', 'fok', 'gtc', 'post_only'] as const) : 'gtc';
  const size = positiveDecimal(required(order, 'size'), 'size');
  const now = core.now();
  const price = orderType === 'limit' ? positiveDecimal(required(order, 'price'), 'price') : decimalText(priceMantissa(market, now), market.pricePlace);
  const reduceOnly = oneOf(order['reduceOnly'] ?? 'NO', 'reduceOnly', ['YES', 'NO'] as const);
  const series = core.book.get(uid, 'futuresOrders', productType);
  const given = order['clientOid'];
  if (given !== undefined && given !== '' && series.query({ limit: 1, startTime: now - 6 * 3_600_000, filter: (o) => o.clientOid === given }).length > 0) {
    fail('40017', `clientOid '${given}' duplicates an earlier order; use a new clientOid`);
  }
  const r = recordRng(hashKey(core.seed, uid, 'futuresClientOid'), core.nextSerial());
  const clientOid = given !== undefined && given !== '' ? given : `${r.u32()}${r.u32()}`;
  const hedge = tradeSide !== undefined;
  const closing = tradeSide === 'close' || reduceOnly === 'YES';
  const quoteVolume = mulText(size, price, market.pricePlace + market.volumePlace);
  const fee = feeOf(quoteVolume, orderType === 'limit' ? '0.0002' : '0.0006');
  const long = hedge ? (side === 'buy') !== closing : side === 'buy';
  // The fee comes out of the futures wallet's balance (its bills' running sum), which never goes below zero.
  const have = core.book.walletBalance(uid, 'futuresBills', productType, marginCoin);
  if (new Decimal(fee).abs().gt(have)) fail('40017', `size: insufficient balance, the order's fee is ${fee.replace(/^-/, '')} ${marginCoin} and the futures account holds ${have}`);
  const { record } = core.book.append(uid, 'futuresOrders', productType, now, (id, t) => ({
    symbol, size, orderId: id.toString(), clientOid, baseVolume: size, fee, price: orderType === 'market' ? '0' : price, priceAvg: price,
    status: 'filled', side, force, totalProfits: '0', posSide: hedge ? (long ? 'long' : 'short') : 'net', marginCoin, quoteVolume,
    leverage: order['leverage'] ?? '10', marginMode, reduceOnly, enterPointSource: 'API', tradeSide: tradeSide ?? (closing ? 'close' : 'open'),
    posMode: hedge ? 'hedge_mode' : 'one_way_mode', orderType, orderSource: orderType === 'market' ? 'market' : 'normal',
    cTime: String(t), uTime: String(t), presetStopSurplusPrice: order['presetStopSurplusPrice'] ?? '', presetStopLossPrice: order['presetStopLossPrice'] ?? '',
  }));
  core.book.append(uid, 'futuresFills', productType, now, (id, t) => ({
    tradeId: id.toString(), symbol, orderId: record.orderId, price, baseVolume: size,
    feeDetail: [{ deduction: 'no', feeCoin: marginCoin, totalDeductionFee: '0', totalFee: fee }],
    side, quoteVolume, profit: '0', enterPointSource: 'API', tradeSide: record.tradeSide, posMode: record.posMode,
    tradeScope: 'taker', marginCoin, marginMode, cTime: String(t),
  }));
  core.book.append(uid, 'futuresBills', productType, now, (id, t) => ({
    billId: id.toString(), symbol, amount: '0', fee, feeByCoupon: '0',
    businessType: `${closing ? 'close' : 'open'}_${long ? 'long' : 'short'}`, coin: marginCoin, balance: '0', cTime: String(t),
  }));
  return { orderId: record.orderId, clientOid };
}
