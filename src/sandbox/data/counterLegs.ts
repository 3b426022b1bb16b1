import type { ProductType } from '../../api/endpoints.js';
import type { MarginRecord } from '../../api/records/margin.js';
import type { FuturesBill } from '../../api/records/mix.js';
import type { AccountType, DepositRecord, TransferRecord, WithdrawalRecord } from '../../api/records/wallet.js';
import type { HistoryRecords, HistoryResource } from '../world.js';
import { rngFor, type GenContext } from './generators/genContext.js';
import { depositShape } from './generators/depositGenerator.js';
import { transferShape } from './generators/transferGenerator.js';
import { withdrawalShape } from './generators/withdrawalGenerator.js';

/** The resources whose records a counter leg is written into. */
export type CounterResource = 'futuresBills' | 'marginRecords' | 'deposits' | 'withdrawals' | 'spotBills';

/**
 * The other side of an own-account movement, as the exchange shows it from that side: the
 * futures bill or margin record of an E19 transfer to or from a futures or margin wallet, the
 * internal deposit of an internal withdrawal to another account of the world, and the
 * withdrawal of an internal deposit from one.
 */
export interface CounterTarget<R extends CounterResource = CounterResource> {
  uid: string;
  resource: R;
  partition: string;
}

export interface CounterLeg<R extends CounterResource = CounterResource> extends CounterTarget<R> {
  /** The leg's record with the id and time of its place in the target series. */
  build(id: bigint, time: number): HistoryRecords[R];
}

/** Futures and margin wallets of E19, with the series that records their side of a transfer. */
const walletSeries: Partial<Record<AccountType, { resource: 'futuresBills' | 'marginRecords'; partition: string }>> = {
  usdt_futures: { resource: 'futuresBills', partition: 'USDT-FUTURES' satisfies ProductType },
  coin_futures: { resource: 'futuresBills', partition: 'COIN-FUTURES' satisfies ProductType },
  usdc_futures: { resource: 'futuresBills', partition: 'USDC-FUTURES' satisfies ProductType },
  crossed_margin: { resource: 'marginRecords', partition: 'crossed' },
  isolated_margin: { resource: 'marginRecords', partition: 'isolated' },
};

/** The sources: resources whose records can have counter legs. */
export const counterSources: readonly HistoryResource[] = ['transfers', 'withdrawals', 'deposits'];

const negated = (size: string): string => (size.startsWith('-') ? size.slice(1) : `-${size}`);

/** An isolated-margin record names its pair: the coin's USDT pair, or BTCUSDT for USDT itself. */
const isolatedSymbol = (coin: string): string => (coin === 'BTC' || coin === 'ETH' || coin === 'SOL' ? `${coin}USDT` : 'BTCUSDT');

type InWorld = (uid: string) => boolean;

/**
 * Where a transfer's counter legs go: its from side first, then its to side. E19 lists a
 * transfer only to its initiator (spec E19) and the ledger reads its spot and p2p legs from that
 * one record; a futures or margin side is recorded by that wallet's own bill or margin record.
 */
function transferTargets(status: string, fromUid: string, toUid: string, fromType: AccountType, toType: AccountType, inWorld: InWorld): CounterTarget[] {
  if (status !== 'Successful') return [];
  const out: CounterTarget[] = [];
  const from = walletSeries[fromType];
  const to = walletSeries[toType];
  if (from !== undefined && inWorld(fromUid)) out.push({ uid: fromUid, ...from });
  if (to !== undefined && inWorld(toUid)) out.push({ uid: toUid, ...to });
  return out;
}

/** A successful internal withdrawal to another account of the world is that account's deposit. */
function withdrawalTargets(status: string, dest: string, fromUid: string, toUid: string, inWorld: InWorld): CounterTarget[] {
  if (status !== 'success' || dest !== 'internal_transfer' || toUid === fromUid || !inWorld(toUid)) return [];
  return [{ uid: toUid, resource: 'deposits', partition: 'all' }];
}

/**
 * A successful deposit from another account of the world is that account's internal withdrawal.
 * Read from the sender, not `dest`: the deliberately bad deposit (badRecords.ts) keeps its sender.
 */
function depositTargets(status: string, toUid: string, fromUid: string, inWorld: InWorld): CounterTarget[] {
  if (status !== 'success' || fromUid === '' || fromUid === toUid || !inWorld(fromUid)) return [];
  return [{ uid: fromUid, resource: 'withdrawals', partition: 'all' }];
}

/**
 * Where the counter legs of generated record j go, read from the record's shape alone (no record
 * is built), in the order counterLegsOf returns them.
 *
 * @example
 * counterTargetsOf('transfers', ctx, 17, (uid) => uid !== '');
 */
export function counterTargetsOf(resource: HistoryResource, ctx: GenContext, j: number, inWorld: InWorld): CounterTarget[] {
  const uid = ctx.account.uid;
  if (resource === 'transfers') {
    const t = transferShape(ctx, j, rngFor(ctx, j));
    return transferTargets(t.status, t.fromUserId, t.toUserId, t.fromType, t.toType, inWorld);
  }
  if (resource === 'withdrawals') {
    const w = withdrawalShape(ctx, j, rngFor(ctx, j));
    return withdrawalTargets(w.status, w.dest, uid, w.toUid, inWorld);
  }
  if (resource === 'deposits') {
    const d = depositShape(ctx, j, rngFor(ctx, j));
    return depositTargets(d.status, uid, d.fromUid, inWorld);
  }
  return [];
}

function transferLeg(t: TransferRecord, target: CounterTarget, incoming: boolean): CounterLeg {
  const amount = incoming ? t.size : negated(t.size);
  if (target.resource === 'futuresBills') {
    // trans_from_exchange: money came into the futures account from another account type.
    const build = (id: bigint, time: number): FuturesBill => ({
      billId: id.toString(), symbol: '', amount, fee: '0', feeByCoupon: '0',
      businessType: incoming ? 'trans_from_exchange' : 'trans_to_exchange', coin: t.coin,
      balance: incoming ? t.size : '0', cTime: String(time),
    });
    return { ...target, build } as CounterLeg;
  }
  const build = (id: bigint, time: number): MarginRecord => ({
    id: id.toString(), coin: t.coin, symbol: target.partition === 'isolated' ? isolatedSymbol(t.coin) : '',
    marginTaxType: incoming ? 'transfer_in' : 'transfer_out', amount, fee: '0', total: incoming ? t.size : '0', ts: String(time),
  });
  return { ...target, build } as CounterLeg;
}

/**
 * The counter legs of a record stored under `uid`, for the accounts `inWorld` accepts: the
 * futures bill or margin record of each futures or margin side of a Successful E19 transfer,
 * and the internal deposit (same coin, size and time; the withdrawal's tradeId) of a successful
 * internal withdrawal to another account of the world. Open or failed records have none: an
 * open one gets its legs when it settles.
 *
 * @example
 * counterLegsOf('transfers', { ...t, fromType: 'spot', toType: 'usdt_futures', status: 'Successful' }, uid, () => true);
 * // [{ uid, resource: 'futuresBills', partition: 'USDT-FUTURES', build }]
 */
export function counterLegsOf(resource: HistoryResource, record: unknown, uid: string, inWorld: InWorld): CounterLeg[] {
  if (resource === 'transfers') {
    const t = record as TransferRecord;
    const fromUid = t.fromUserId === '' ? uid : t.fromUserId;
    const toUid = t.toUserId === '' ? uid : t.toUserId;
    const targets = transferTargets(t.status, fromUid, toUid, t.fromType, t.toType, inWorld);
    const fromLeg = walletSeries[t.fromType] !== undefined && inWorld(fromUid);
    return targets.map((target, k) => transferLeg(t, target, !(k === 0 && fromLeg)));
  }
  if (resource === 'withdrawals') {
    const w = record as WithdrawalRecord;
    return withdrawalTargets(w.status, w.dest, uid, w.toAddress, inWorld).map((target) => {
      const build = (id: bigint, time: number): DepositRecord => ({
        orderId: id.toString(), tradeId: w.tradeId, coin: w.coin, type: 'deposit', dest: 'internal_transfer', size: w.size,
        status: 'success', fromAddress: uid, toAddress: w.toAddress, chain: '', cTime: String(time), uTime: String(time),
      });
      return { ...target, build } as CounterLeg;
    });
  }
  if (resource === 'deposits') {
    const d = record as DepositRecord;
    const fromUid = d.dest === 'on_chain' ? '' : d.fromAddress;
    return depositTargets(d.status, uid, fromUid, inWorld).map((target) => {
      const build = (id: bigint, time: number): WithdrawalRecord => ({
        orderId: id.toString(), tradeId: d.tradeId, coin: d.coin, dest: 'internal_transfer', clientOid: '', type: 'withdraw', tag: '',
        size: d.size, fee: '0', status: 'success', toAddress: uid, fromAddress: d.fromAddress, confirm: '0', chain: '',
        cTime: String(time), uTime: String(time),
      });
      return { ...target, build } as CounterLeg;
    });
  }
  return [];
}
