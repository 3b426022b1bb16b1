import { accountTypes, type AccountType, type TransferRecord } from '../../../api/records/wallet.js';
import { decimalText } from '../decimalText.js';
import { cover, hexId, rngFor, type RecordGenerator } from './genContext.js';

/** Every ordered pair of different account types. */
export const accountTypePairs: readonly (readonly [AccountType, AccountType])[] =
  accountTypes.flatMap((from) => accountTypes.filter((to) => to !== from).map((to) => [from, to] as const));
const openStatuses = ['Processing', 'Successful', 'Failed'] as const;

/**
 * Transfers (E19), stored under the initiator: a main account sends to its subs, a sub to its
 * main, and either moves between its own account types.
 *
 * @example
 * transferGenerator(ctx, 0, Date.now(), 1_793_491_199_998_000_000n);
 */
export const transferGenerator: RecordGenerator<TransferRecord> = (ctx, j, t, id) => {
  const rng = rngFor(ctx, j);
  const [fromType, toType] = cover(accountTypePairs, j, ctx, rng);
  const status = j >= ctx.openFrom ? openStatuses[(j + ctx.coverOffset) % 3]! : rng.chance(0.93) ? 'Successful' : 'Failed';
  const toOther = ctx.peers.length > 0 && (j + ctx.coverOffset) % 3 !== 0;
  return {
    coin: cover(['USDT', 'BTC', 'ETH', 'USDC'] as const, j, ctx, rng, 1),
    status,
    toType,
    fromType,
    size: decimalText(rng.range(1, 900_000_000), 6),
    ts: String(t),
    clientOid: hexId(rng),
    transferId: id.toString(),
    fromUserId: ctx.account.uid,
    toUserId: toOther ? ctx.peers[j % ctx.peers.length]! : ctx.account.uid,
  };
};
