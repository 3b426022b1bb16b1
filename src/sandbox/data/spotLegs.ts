import type { SpotBill, SpotFill } from '../../api/records/spot.js';
import type { DepositRecord, TransferRecord, WithdrawalRecord } from '../../api/records/wallet.js';
import type { HistoryResource } from '../world.js';
import { spotMarket } from './catalog.js';
import type { CounterLeg, CounterTarget } from './counterLegs.js';
import { depositShape } from './generators/depositGenerator.js';
import { rngFor, type GenContext } from './generators/genContext.js';
import { transferShape } from './generators/transferGenerator.js';
import { withdrawalShape } from './generators/withdrawalGenerator.js';

type InWorld = (uid: string) => boolean;

/** The resources whose records move a spot wallet, and so leave spot bills. */
export const spotLegSources: readonly HistoryResource[] = ['spotFills', 'deposits', 'withdrawals', 'transfers'];

const billTarget = (uid: string): CounterTarget => ({ uid, resource: 'spotBills', partition: 'all' });
const negated = (x: string): string => (x === '0' ? '0' : x.startsWith('-') ? x.slice(1) : `-${x}`);
const magnitude = (x: string): string => (x.startsWith('-') ? x.slice(1) : x);

/** A spot bill; its balance ('0' here) is filled in by the bill series (balancedSeries.ts). */
function bill(coin: string, groupType: string, businessType: string, size: string, fees: string): (id: bigint, time: number) => SpotBill {
  return (id, time): SpotBill => ({ billId: id.toString(), coin, groupType, businessType, size, balance: '0', fees, cTime: String(time) });
}

/**
 * The uids that receive a spot bill from generated record j, read from its shape alone (no
 * record is built), in the order spotLegsOf returns the legs.
 *
 * @example
 * spotLegTargetsOf('spotFills', ctx, 3, inWorld); // [uid, uid, uid]: base, quote, fee
 */
export function spotLegTargetsOf(resource: HistoryResource, ctx: GenContext, j: number, inWorld: InWorld): CounterTarget[] {
  const uid = ctx.account.uid;
  if (resource === 'spotFills') return [billTarget(uid), billTarget(uid), billTarget(uid)];
  if (resource === 'deposits') {
    const d = depositShape(ctx, j, rngFor(ctx, j));
    if (d.status !== 'success') return [];
    return d.fromUid !== '' && d.fromUid !== uid && inWorld(d.fromUid) ? [billTarget(uid), billTarget(d.fromUid)] : [billTarget(uid)];
  }
  if (resource === 'withdrawals') {
    const w = withdrawalShape(ctx, j, rngFor(ctx, j));
    if (w.status !== 'success') return [];
    return w.dest === 'internal_transfer' && w.toUid !== uid && inWorld(w.toUid) ? [billTarget(uid), billTarget(w.toUid)] : [billTarget(uid)];
  }
  if (resource === 'transfers') {
    const t = transferShape(ctx, j, rngFor(ctx, j));
    return transferSpotTargets(t.status, t.fromUserId, t.toUserId, t.fromType, t.toType, inWorld);
  }
  return [];
}

function transferSpotTargets(status: string, fromUid: string, toUid: string, fromType: string, toType: string, inWorld: InWorld): CounterTarget[] {
  if (status !== 'Successful') return [];
  const out: CounterTarget[] = [];
  if (fromType === 'spot' && inWorld(fromUid)) out.push(billTarget(fromUid));
  if (toType === 'spot' && inWorld(toUid)) out.push(billTarget(toUid));
  return out;
}

/**
 * The spot bills (balance left to the bill series) that a record stored under `uid` leaves,
 * one per ledger movement: a fill's base leg, quote leg and fee (in the coin the fee was paid
 * in, as the fill's feeDetail says); a successful deposit; a successful withdrawal (size and
 * fee); the spot sides of a successful transfer; and the other side of an internal deposit or
 * withdrawal between accounts of the world. Open or failed records leave none until they settle.
 *
 * @example
 * spotLegsOf('deposits', { ...deposit, status: 'success' }, uid, () => true); // [{ uid, build }]
 */
export function spotLegsOf(resource: HistoryResource, record: unknown, uid: string, inWorld: InWorld): CounterLeg[] {
  const leg = (to: string, build: (id: bigint, time: number) => SpotBill): CounterLeg => ({ ...billTarget(to), build } as CounterLeg);
  if (resource === 'spotFills') {
    const f = record as SpotFill;
    const m = spotMarket(f.symbol);
    const base = m?.base ?? f.symbol;
    const quote = m?.quote ?? '';
    const buy = f.side === 'buy';
    const fd = f.feeDetail;
    // The ledger's reading (src/normalize/README.md): a deduction is a charge of |totalDeductionFee|;
    // otherwise totalFee is signed, negative a charge and positive a maker rebate.
    const fee = fd.deduction === 'yes' ? negated(magnitude(fd.totalDeductionFee)) : fd.totalFee;
    const rebate = !fee.startsWith('-') && fee !== '0';
    return [
      leg(uid, bill(base, 'transaction', f.side, buy ? f.size : negated(f.size), '0')),
      leg(uid, bill(quote, 'transaction', f.side, buy ? negated(f.amount) : f.amount, '0')),
      leg(uid, rebate ? bill(fd.feeCoin, 'other', 'rebate rewards', fee, '0') : bill(fd.feeCoin, 'transaction', 'deduction of handling fee', '0', fee)),
    ];
  }
  if (resource === 'deposits') {
    const d = record as DepositRecord;
    if (d.status !== 'success') return [];
    const size = magnitude(d.size);
    const out = [leg(uid, bill(d.coin, 'deposit', 'deposit', size, '0'))];
    const fromUid = d.dest === 'on_chain' ? '' : d.fromAddress;
    if (fromUid !== '' && fromUid !== uid && inWorld(fromUid)) out.push(leg(fromUid, bill(d.coin, 'withdraw', 'withdraw', negated(size), '0')));
    return out;
  }
  if (resource === 'withdrawals') {
    const w = record as WithdrawalRecord;
    if (w.status !== 'success') return [];
    const size = magnitude(w.size);
    const out = [leg(uid, bill(w.coin, 'withdraw', 'withdraw', negated(size), negated(magnitude(w.fee))))];
    if (w.dest === 'internal_transfer' && w.toAddress !== uid && inWorld(w.toAddress)) out.push(leg(w.toAddress, bill(w.coin, 'deposit', 'deposit', size, '0')));
    return out;
  }
  if (resource === 'transfers') {
    const t = record as TransferRecord;
    const fromUid = t.fromUserId === '' ? uid : t.fromUserId;
    const toUid = t.toUserId === '' ? uid : t.toUserId;
    const size = magnitude(t.size);
    return transferSpotTargets(t.status, fromUid, toUid, t.fromType, t.toType, inWorld).map((target, k) => {
      const out = k === 0 && t.fromType === 'spot' && inWorld(fromUid);
      return leg(target.uid, bill(t.coin, 'transfer', out ? 'transfer-out' : 'transfer-in', out ? negated(size) : size, '0'));
    });
  }
  return [];
}
