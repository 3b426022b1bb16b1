import { accountTypes, type AccountType, type TransferRecord } from '../../../api/records/wallet.js';
import { decimalText } from '../decimalText.js';
import type { Rng } from '../rng.js';
import { cover, hexId, rngFor, type GenContext, type RecordGenerator } from './genContext.js';

/** Every ordered pair of different account types. */
export const accountTypePairs: readonly (readonly [AccountType, AccountType])[] =
  accountTypes.flatMap((from) => accountTypes.filter((to) => to !== from).map((to) => [from, to] as const));
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
  return {
    coin: cover(['USDT', 'BTC', 'ETH', 'USDC'] as const, j, ctx, rng, 1),
    status,
    toType,
    fromType,
    size: decimalText(rng.range(1, 900_000_000), 6),
    ts: String(t),
    clientOid: hexId(rng),
    transferId: id.toString(),
    fromUserId,
    toUserId,
  };
};
