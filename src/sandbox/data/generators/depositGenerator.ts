import type { DepositRecord } from '../../../api/records/wallet.js';
import { chainsOf, walletCoins } from '../catalog.js';
import type { Rng } from '../rng.js';
import { cover, laterTime, rngFor, type GenContext, type RecordGenerator } from './genContext.js';
import { chainAddress, externalUid, txHash } from './walletText.js';
import { coinAmount } from './tradeAmounts.js';

const dests = ['on_chain', 'internal', 'on_chain', 'internal_transfer'] as const;
const openStatuses = ['pending', 'fail', 'success'] as const;

/** What decides a deposit's counter leg, drawn first from the record's rng (see depositShape). */
export interface DepositShape {
  coin: string;
  dest: (typeof dests)[number];
  status: DepositRecord['status'];
  /** The sending UID of an internal deposit ('' on chain): a family member, or another user. */
  fromUid: string;
}

/**
 * Coin, destination, status and (internal) sender of deposit j, without building the record:
 * the book asks it of every deposit when it places counter legs.
 *
 * @example
 * depositShape(ctx, 0, rngFor(ctx, 0)).fromUid; // '' for an on-chain deposit
 */
export function depositShape(ctx: GenContext, j: number, rng: Rng): DepositShape {
  const coin = cover(walletCoins, j, ctx, rng);
  const dest = cover(dests, j, ctx, rng, 1);
  const status = j >= ctx.openFrom ? openStatuses[(j + ctx.coverOffset) % 3]! : rng.chance(0.95) ? 'success' : 'fail';
  const fromUid = dest === 'on_chain' ? '' : ctx.peers.length > 0 ? ctx.peers[j % ctx.peers.length]! : externalUid;
  return { coin, dest, status, fromUid };
}

/**
 * Deposits (E20): on-chain and internal (`dest` spelled both `internal` and `internal_transfer`), every status.
 *
 * @example
 * depositGenerator(ctx, 0, Date.now(), 1_793_491_199_998_000_000n);
 */
export const depositGenerator: RecordGenerator<DepositRecord> = (ctx, j, t, id) => {
  const rng = rngFor(ctx, j);
  const { coin, dest, status, fromUid } = depositShape(ctx, j, rng);
  const chain = chainsOf(coin)[0]?.chain ?? '';
  const onChain = dest === 'on_chain';
  return {
    orderId: id.toString(),
    tradeId: onChain ? txHash(rng) : (id + 17n).toString(),
    coin,
    type: 'deposit',
    dest,
    size: coinAmount(coin, t, rng, 50, 10_000),
    status,
    // An internal deposit from the account's family has its withdrawal placed in the sender's
    // series (counterLegs.ts).
    fromAddress: onChain ? chainAddress(chain, rng) : fromUid,
    toAddress: onChain ? chainAddress(chain, rng) : ctx.account.uid,
    chain: onChain ? chain : '',
    cTime: String(t),
    uTime: String(status === 'pending' ? t : laterTime(ctx, t, rng, 1_800_000)),
  };
};
