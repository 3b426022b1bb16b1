import type { PlanOrder } from '../../../api/records/mix.js';
import { cover, hexId, laterTime, rngFor, type RecordGenerator } from './genContext.js';
import { futuresEnterPoints, futuresTradeShape } from './futuresShape.js';
import { priceNear, quantityNear } from './tradeAmounts.js';

const orderSources = [
  'normal', 'market', 'profit_market', 'loss_market', 'Trader_delegate', 'trader_profit', 'trader_loss', 'trader_reverse',
  'profit_limit', 'loss_limit', 'delivery_close_short', 'pos_profit_limit', 'pos_profit_market', 'pos_loss_limit', 'pos_loss_market',
] as const;
const triggerTypes = ['fill_price', 'mark_price', 'index_price'] as const;

/**
 * Pending trigger orders (E11): normal_plan, track_plan (callbackRatio, no price) and profit_loss.
 *
 * @example
 * planOrderGenerator(ctx, 0, Date.now(), 1_793_491_199_998_000_000n);
 */
export const planOrderGenerator: RecordGenerator<PlanOrder> = (ctx, j, t, id) => {
  const rng = rngFor(ctx, j);
  const s = futuresTradeShape(ctx, j, rng);
  const m = s.market;
  const planType = cover(['normal_plan', 'track_plan', 'profit_loss'] as const, j, ctx, rng, 5);
  const orderType = planType === 'track_plan' ? 'market' : cover(['limit', 'market'] as const, j, ctx, rng, 6);
  const executePrice = orderType === 'limit' ? priceNear(m, t, rng, 50) : '0';
  const preset = rng.chance(0.3);
  // Plain locals in the old draw order, then one object literal per shape: spreading a `base`
  // and a `tail` object into the record cost more than the rest of the record.
  const size = quantityNear(m, m.volumePlace, t, rng);
  const clientOid = hexId(rng);
  const triggerPrice = priceNear(m, t, rng, 50);
  const triggerType = cover(triggerTypes, j, ctx, rng, 7);
  // The spec's sample shows `not_trigger` once; current orders are otherwise `live`.
  const planStatus = (j + ctx.coverOffset) % 17 === 4 ? 'not_trigger' as const : 'live' as const;
  const enterPointSource = cover(futuresEnterPoints, j, ctx, rng, 8);
  const orderSource = cover(orderSources, j, ctx, rng, 9);
  const uTime = String(laterTime(ctx, t, rng, 3_600_000));
  const stopSurplusExecutePrice = preset ? priceNear(m, t, rng, 90) : '';
  const stopSurplusTriggerPrice = preset ? priceNear(m, t, rng, 90) : '';
  const stopSurplusTriggerType = preset ? cover(triggerTypes, j, ctx, rng, 10) : '';
  const stopLossExecutePrice = preset ? priceNear(m, t, rng, 90) : '';
  const stopLossTriggerPrice = preset ? priceNear(m, t, rng, 90) : '';
  const stopLossTriggerType = preset ? cover(triggerTypes, j, ctx, rng, 11) : '';
  const tradeSide = s.closing ? 'close' as const : 'open' as const;
  const orderId = id.toString();
  const cTime = String(t);
  // A trailing stop has callbackRatio and no price; the others have price and no callbackRatio.
  return planType === 'track_plan'
    ? {
      planType, symbol: m.symbol, size, orderId, clientOid, callbackRatio: String(rng.range(1, 10)), executePrice, triggerPrice, triggerType,
      planStatus, side: s.side, posSide: s.posSide, marginCoin: s.marginCoin, marginMode: s.marginMode, enterPointSource, tradeSide,
      posMode: s.posMode, orderType, orderSource, cTime, uTime, stopSurplusExecutePrice, stopSurplusTriggerPrice, stopSurplusTriggerType,
      stopLossExecutePrice, stopLossTriggerPrice, stopLossTriggerType,
    }
    : {
      planType, symbol: m.symbol, size, orderId, clientOid, price: executePrice, executePrice, triggerPrice, triggerType,
      planStatus, side: s.side, posSide: s.posSide, marginCoin: s.marginCoin, marginMode: s.marginMode, enterPointSource, tradeSide,
      posMode: s.posMode, orderType, orderSource, cTime, uTime, stopSurplusExecutePrice, stopSurplusTriggerPrice, stopSurplusTriggerType,
      stopLossExecutePrice, stopLossTriggerPrice, stopLossTriggerType,
    };
};
