import { accountTypes, type AccountType, type TransferRecord } from '../../../api/records/wallet.js';
import type { Rng } from '../rng.js';
import { cover, hexId, rngFor, type GenContext, type RecordGenerator } from './genContext.js';
import { coinAmount } from './tradeAmounts.js';

/**
 * The coins each wallet holds: a futures wallet only its product type's margin coins (spec E14),
 * margin wallets the margin coins. p2p is left out: the world keeps no p2p balance, so a transfer
 * out of it could not be covered (the books balance only what they hold).
 */
const walletCoins: Partial<Record<AccountType, readonly string[]>> = {
  spot: ['USDT', 'BTC', 'ETH', 'USDC'],
  usdt_futures: ['USDT'],
  usdc_futures: ['USDC'],
  coin_futures: ['BTC', 'ETH', 'USDT'],
  crossed_margin: ['USDT', 'BTC', 'ETH'],
  isolated_margin: ['USDT', 'BTC', 'ETH'],
};

const coinsOf = (from: AccountType, to: AccountType): string[] =>
  (walletCoins[from] ?? []).filter((c) => (walletCoins[to] ?? []).includes(c));

/** Every ordered pair of different account types that hold a coin in common. */
export const accountTypePairs: readonly (readonly [AccountType, AccountType])[] =
  accountTypes.flatMap((from) => accountTypes.filter((to) => to !== from && coinsOf(from, to).length > 0).map((to) => [from, to] as const));
const openStatuses = ['Processing', 'Successful', 'Failed'] as const;

/** What decides a transfer's counter legs, drawn first from the record's rng (see transferShape). */
export interface TransferShape {
  fromType: AccountType;
  toType: AccountType;
  status: TransferRecord['status'];
  /** The account the money leaves: the initiator's own, or (a main account's) one of its subs. */
  fromUserId: string;
  toUserId: string;
}

/**
 * The types, status and receiver of transfer j, without building the record: the book asks it
 * of every transfer when it places counter legs, so it draws nothing it does not need.
 *
 * @example
 * transferShape(ctx, 0, rngFor(ctx, 0)).toType; // e.g. 'usdt_futures'
 */
export function transferShape(ctx: GenContext, j: number, rng: Rng): TransferShape {
  const [fromType, toType] = cover(accountTypePairs, j, ctx, rng);
  const status = j >= ctx.openFrom ? openStatuses[(j + ctx.coverOffset) % 3]! : rng.chance(0.93) ? 'Successful' : 'Failed';
  const turn = (j + ctx.coverOffset) % 3;
  const toOther = ctx.peers.length > 0 && turn !== 0;
  const peer = toOther ? ctx.peers[j % ctx.peers.length]! : ctx.account.uid;
  // A main account also moves money out of a sub-account to itself; E19 lists that transfer
  // only to the main account and only when asked with that subUid (spec E19).
  const outOfSub = toOther && ctx.account.main && turn === 2;
  return { fromType, toType, status, fromUserId: outOfSub ? peer : ctx.account.uid, toUserId: outOfSub ? ctx.account.uid : peer };
}

/**
 * Transfers (E19), stored under the initiator: a main account sends to its subs and takes from
 * them, a sub sends to its main, and either moves between its own account types.
 *
 * @example
 * transferGenerator(ctx, 0, Date.now(), 1_793_491_199_998_000_000n);
 */
export const transferGenerator: RecordGenerator<TransferRecord> = (ctx, j, t, id) => {
  const rng = rngFor(ctx, j);
  const { fromType, toType, status, fromUserId, toUserId } = transferShape(ctx, j, rng);
  const coin = cover(coinsOf(fromType, toType), j, ctx, rng, 1);
  return {
    coin,
    status,
    toType,
    fromType,
    size: coinAmount(coin, t, rng, 10, 5_000),
    ts: String(t),
    clientOid: hexId(rng),
    transferId: id.toString(),
    fromUserId,
    toUserId,
  };
};
