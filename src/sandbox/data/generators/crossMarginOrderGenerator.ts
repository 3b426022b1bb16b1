import type { CrossMarginOrder } from '../../../api/records/margin.js';
import { spotMarkets } from '../catalog.js';
import { mulText } from '../decimalText.js';
import { cover, hexId, laterTime, rngFor, type RecordGenerator } from './genContext.js';
import { priceNear, quantityNear } from './tradeAmounts.js';

const openStatuses = ['live', 'partially_fill', 'filled', 'cancelled', 'reject'] as const;
const sides = ['sell', 'buy', 'liquidation-buy', 'liquidation-sell', 'systemRepay-buy', 'systemRepay-selll'] as const;
const loanTypes = ['normal', 'autoLoan', 'autoRepay', 'autoLoanAndRepay'] as const;
const forces = ['gtc', 'post_only', 'fok', 'ioc'] as const;
const enterPoints = ['WEB', 'API', 'SYS', 'ANDROID', 'IOS'] as const;
const markets = spotMarkets.slice(0, 4);

/**
 * Cross-margin orders (E13): every status (incl. `partially_fill`), side (incl. `systemRepay-selll`) and loanType.
 *
 * @example
 * crossMarginOrderGenerator(ctx, 0, Date.now(), 1_793_491_199_998_000_000n);
 */
export const crossMarginOrderGenerator: RecordGenerator<CrossMarginOrder> = (ctx, j, t, id) => {
  const rng = rngFor(ctx, j);
  const m = cover(markets, j, ctx, rng);
  const open = j >= ctx.openFrom;
  const status = open ? openStatuses[(j + ctx.coverOffset) % openStatuses.length]! : cover(['filled', 'cancelled', 'reject'] as const, j, ctx, rng, 1);
  const price = priceNear(m, t, rng);
  const qty = quantityNear(m, m.qtyPlace, t, rng);
  const filled = status === 'filled' || status === 'partially_fill' ? qty : '0';
  return {
    symbol: m.symbol,
    orderId: id.toString(),
    clientOid: hexId(rng),
    size: filled,
    amount: filled,
    priceAvg: price,
    price,
    force: cover(forces, j, ctx, rng, 2),
    enterPointSource: cover(enterPoints, j, ctx, rng, 3),
    status,
    side: cover(sides, j, ctx, rng, 4),
    baseSize: qty,
    quoteSize: mulText(qty, price, m.pricePlace + m.qtyPlace),
    orderType: rng.chance(0.7) ? 'limit' : 'market',
    loanType: cover(loanTypes, j, ctx, rng, 5),
    cTime: String(t),
    uTime: String(status === 'live' ? t : laterTime(ctx, t, rng, 600_000)),
  };
};
