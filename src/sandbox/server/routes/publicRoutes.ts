import type { Handler } from '../RequestContext.js';

/** X9 coins and X10 symbols: public and unsigned, with an optional single-item filter. */
export const publicRoutes: Record<'publicCoins' | 'publicSymbols', Handler> = {
  publicCoins(ctx) {
    const coin = ctx.params.optional('coin');
    return ctx.world.coins().filter((c) => coin === undefined || c.coin === coin);
  },

  publicSymbols(ctx) {
    const symbol = ctx.params.optional('symbol');
    return ctx.world.symbols().filter((s) => symbol === undefined || s.symbol === symbol);
  },
};
