import { WorldError } from '../../world.js';
import { ApiFailure } from '../ApiFailure.js';
import { callerOf, type Handler, type RequestContext } from '../RequestContext.js';
import { RequestParams } from '../RequestParams.js';
import { checkReceiveWindow } from './checkReceiveWindow.js';

const maxBatchItems = 50;
const presetFields = ['presetTakeProfitPrice', 'executeTakeProfitPrice', 'presetStopLossPrice', 'executeStopLossPrice'] as const;

/** E1, E4 and E17: spot writes. Validation lives here; the world places, cancels and fills. */
export const spotWriteRoutes: Record<'placeSpotOrder' | 'batchCancelReplace' | 'batchPlaceSpotOrders', Handler> = {
  placeSpotOrder(ctx) {
    const order = readSpotOrder(ctx.params);
    checkReceiveWindow(ctx);
    return ctx.world.placeSpotOrder(callerOf(ctx).uid, order);
  },

  batchPlaceSpotOrders(ctx) {
    const mode = ctx.params.choice('batchMode', ['single', 'multiple'] as const, 'single');
    const topSymbol = mode === 'single' ? ctx.params.required('symbol') : undefined;
    const items = ctx.params.list('orderList', maxBatchItems);
    if (!items || items.length === 0) throw ApiFailure.of('40019', 'orderList');
    const successList: { orderId: string; clientOid: string }[] = [];
    const failureList: { orderId: string; clientOid: string; errorMsg: string; errorCode: string }[] = [];
    const batchOids = new Set<string>();
    for (const item of items) {
      const fields = isObject(item) ? item : {};
      try {
        if (!isObject(item)) throw ApiFailure.of('40017', 'each orderList item must be an object');
        // A clientOid repeated inside one batch fails that item instead of aliasing the first order.
        const oid = typeof item.clientOid === 'string' && item.clientOid !== '' ? item.clientOid : undefined;
        if (oid !== undefined && batchOids.has(oid)) throw ApiFailure.of('40017', `clientOid '${oid}' is repeated in this batch; use a new clientOid`);
        if (oid !== undefined) batchOids.add(oid);
        // In single mode the item's own symbol is ignored (spec E17 rules).
        const order = readSpotOrder(RequestParams.fromObject(topSymbol ? { ...item, symbol: topSymbol } : item));
        successList.push(ctx.world.placeSpotOrder(callerOf(ctx).uid, order));
      } catch (err) {
        const { code, message } = failureOf(err);
        const clientOid = typeof fields.clientOid === 'string' ? fields.clientOid : '';
        failureList.push({ orderId: '', clientOid, errorMsg: message, errorCode: code });
      }
    }
    return { successList, failureList };
  },

  batchCancelReplace(ctx) {
    const items = ctx.params.list('orderList', maxBatchItems);
    if (!items || items.length === 0) throw ApiFailure.of('40019', 'orderList');
    return items.map((item) => cancelReplaceOne(ctx, item));
  },
};

function cancelReplaceOne(ctx: RequestContext, item: unknown) {
  const fields = isObject(item) ? item : {};
  const orderId = typeof fields.orderId === 'string' ? fields.orderId : '';
  const clientOid = typeof fields.clientOid === 'string' ? fields.clientOid : null;
  try {
    if (!isObject(item)) throw ApiFailure.of('40017', 'each orderList item must be an object');
    const p = RequestParams.fromObject(item);
    const request: Record<string, string | undefined> = {
      symbol: p.required('symbol'), price: p.amount('price', true), size: p.amount('size', true),
      orderId: p.optional('orderId'), clientOid: p.optional('clientOid'), newClientOid: p.optional('newClientOid'),
    };
    if (request.orderId === undefined && request.clientOid === undefined) throw ApiFailure.of('40019', 'orderId or clientOid');
    for (const f of presetFields) request[f] = p.amount(f, false);
    return ctx.world.cancelReplace(callerOf(ctx).uid, request);
  } catch (err) {
    return { orderId, clientOid, success: 'failure' as const, msg: failureOf(err).message };
  }
}

function readSpotOrder(p: RequestParams): Record<string, string | undefined> {
  const orderType = p.requiredChoice('orderType', ['limit', 'market'] as const);
  const order: Record<string, string | undefined> = {
    symbol: p.required('symbol'),
    side: p.requiredChoice('side', ['buy', 'sell'] as const),
    orderType,
    // force is required for limit orders and meaningless (ignored) for market orders.
    force: orderType === 'limit'
      ? p.requiredChoice('force', ['gtc', 'post_only', 'fok', 'ioc'] as const)
      : p.choice('force', ['gtc', 'post_only', 'fok', 'ioc'] as const),
    price: p.amount('price', orderType === 'limit'),
    size: p.amount('size', true),
    clientOid: p.optional('clientOid'),
    tpslType: p.choice('tpslType', ['normal', 'tpsl'] as const, 'normal'),
    stpMode: p.choice('stpMode', ['none', 'cancel_taker', 'cancel_maker', 'cancel_both'] as const, 'none'),
    triggerPrice: p.amount('triggerPrice', false),
  };
  if (order.tpslType === 'tpsl' && order.triggerPrice === undefined) throw ApiFailure.of('40019', 'triggerPrice');
  for (const f of presetFields) order[f] = p.amount(f, false);
  return order;
}

function failureOf(err: unknown): { code: string; message: string } {
  if (err instanceof ApiFailure || err instanceof WorldError) return { code: err.code, message: err.message };
  throw err;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
