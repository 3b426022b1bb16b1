import type { DepositRecord, TransferRecord, WithdrawalRecord } from '../../../api/records/wallet.js';
import { ApiFailure } from '../ApiFailure.js';
import { callerOf, type Handler } from '../RequestContext.js';
import type { RequestParams } from '../RequestParams.js';
import type { TimeWindow } from '../resolveWindow.js';
import type { Series } from '../../world.js';
import { pageLimit, windowOf } from '../endpointRules.js';
import { byParams, historyPage, lookupByField, lookupById, seriesOf } from '../historyPage.js';

const brokerCoins = ['BTC', 'ETH', 'USDT', 'USDC', 'TRX', 'XRP', 'LTC', 'SOL'] as const;
const dests = ['on_chain', 'internal_transfer'] as const;

/** E9 and E18 withdrawals, E19 transfers, E20 deposits, X3 withdrawal records. */
export const walletRoutes: Record<'brokerSubWithdrawal' | 'spotWithdrawal' | 'transfers' | 'deposits' | 'withdrawals', Handler> = {
  spotWithdrawal(ctx) {
    const p = ctx.params;
    const transferType = p.requiredChoice('transferType', dests);
    const innerToType = p.choice('innerToType', ['email', 'mobile', 'uid'] as const, 'uid');
    const request = {
      coin: p.required('coin'), transferType, address: p.required('address'),
      chain: transferType === 'on_chain' ? p.required('chain') : p.optional('chain'),
      innerToType, areaCode: innerToType === 'mobile' ? p.required('areaCode') : p.optional('areaCode'),
      tag: p.optional('tag'), size: p.amount('size', true), remark: p.optional('remark'), clientOid: p.optional('clientOid'),
    };
    return ctx.world.withdraw(callerOf(ctx).uid, request);
  },

  /** Only an ND broker's main account may call it (40014), and only for its own sub-accounts. */
  brokerSubWithdrawal(ctx) {
    const caller = callerOf(ctx);
    if (!caller.broker || !caller.main) throw ApiFailure.of('40014', 'ND broker main account');
    const p = ctx.params;
    const subUid = p.required('subUid');
    const dest = p.requiredChoice('dest', dests);
    const request = {
      subUid, coin: p.requiredChoice('coin', brokerCoins), dest, address: p.required('address'), chain: p.optional('chain'),
      amount: p.amount('amount', true), tag: p.optional('tag'), clientOid: p.optional('clientOid'), remark: p.optional('remark'),
    };
    if (!caller.subUids.includes(subUid)) throw ApiFailure.of('40017', `subUid ${subUid} is not a sub-account of this broker`);
    // The world books it on the sub-account's withdrawals.
    return ctx.world.withdraw(caller.uid, request);
  },

  /**
   * Span at most 90 days (40705); cursor: transferId. As spec E19 says: only records the caller
   * initiated, and of those, without subUid only the transfers made from the caller's own
   * account; with subUid only those made from that sub-account (a main account moving money
   * out of its sub). So a main account's transfers out of its subs are seen only sub by sub.
   */
  transfers(ctx) {
    const window = windowOf(ctx);
    const limit = pageLimit(ctx);
    const cursor = ctx.params.id('idLessThan');
    const from = ctx.params.optional('subUid') ?? callerOf(ctx).uid;
    // A field equality, so the series remembers which records miss it (no rebuild per page).
    const filter = byParams<TransferRecord>(ctx.params, { coin: 'coin' }, undefined, { fromUserId: from });
    const series = seriesOf(ctx, 'transfers');
    const clientOid = ctx.params.optional('clientOid');
    return clientOid !== undefined ? lookupByField(series, 'clientOid', clientOid, filter) : historyPage(series, window, cursor, limit, filter);
  },

  /** An orderId is looked up directly, ignoring everything else; cursor: the smallest orderId. */
  deposits(ctx) {
    return recordsOf(ctx.params, seriesOf(ctx, 'deposits'), windowOf(ctx), pageLimit(ctx), byParams<DepositRecord>(ctx.params, { coin: 'coin' }));
  },

  /** Like E20, plus a clientOid lookup; cursor: the smallest orderId. */
  withdrawals(ctx) {
    const series = seriesOf(ctx, 'withdrawals');
    const filter = byParams<WithdrawalRecord>(ctx.params, { coin: 'coin' });
    const clientOid = ctx.params.optional('clientOid');
    const window = windowOf(ctx);
    const limit = pageLimit(ctx);
    if (ctx.params.optional('orderId') === undefined && clientOid !== undefined) return lookupByField(series, 'clientOid', clientOid, filter);
    return recordsOf(ctx.params, series, window, limit, filter);
  },
};

function recordsOf<T>(params: RequestParams, series: Series<T>, window: TimeWindow,
  limit: number, filter: ((r: T) => boolean) | undefined): T[] {
  const orderId = params.optional('orderId');
  const cursor = params.id('idLessThan');
  return orderId !== undefined ? lookupById(series, orderId, undefined) : historyPage(series, window, cursor, limit, filter);
}
