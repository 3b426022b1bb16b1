import type { Partition, SnapshotStream } from '../streamDef.js';
import { byProductType } from '../partitions.js';
import { asEntries, asList } from '../asList.js';
import { positions } from './positions.js';

/**
 * E12 single positions, on demand (`--streams singlePositions`): one request per open position
 * that E16 lists, for the fields only E12 carries (autoMargin). Rows land in position_snapshots,
 * where the richer E12 record replaces the E16 one of the same run.
 */
export const singlePositions: SnapshotStream = {
  ...positions,
  name: 'singlePositions',
  endpoint: 'singlePosition',
  shape: 'positions',
  optIn: true,
  partitions: async (ctx) => {
    const out: Partition[] = [];
    if (ctx.call === undefined) return out;
    for (const p of byProductType(ctx)) {
      const seen = new Set<string>();
      for (const pos of asList(await ctx.call('allPositions', { ...p.params }))) {
        if (typeof pos.symbol !== 'string' || typeof pos.marginCoin !== 'string') continue;
        const key = `${p.key}/${pos.symbol}/${pos.marginCoin}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ key, params: { ...p.params, symbol: pos.symbol, marginCoin: pos.marginCoin }, columns: p.columns });
      }
    }
    return out;
  },
  fetch: async (call, p) => asEntries(await call('singlePosition', { ...p.params })),
};
