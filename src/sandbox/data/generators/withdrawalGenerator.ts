import type { WithdrawalRecord } from '../../../api/records/wallet.js';
import { chainsOf, walletCoins } from '../catalog.js';
import type { Rng } from '../rng.js';
import { cover, hexId, laterTime, rngFor, type GenContext, type RecordGenerator } from './genContext.js';
import { chainAddress, externalUid, txHash } from './walletText.js';
import { coinAmount } from './tradeAmounts.js';

const openStatuses = ['pending', 'fail', 'success'] as const;

/** What decides a withdrawal's counter leg, drawn first from the record's rng (see withdrawalShape). */
export interface WithdrawalShape {
  coin: string;
  dest: WithdrawalRecord['dest'];
  chainSpec: ReturnType<typeof chainsOf>[number] | undefined;
  status: WithdrawalRecord['status'];
  /** The receiving UID of an internal withdrawal ('' on chain). */
  toUid: string;
}

/**
 * Coin, destination, chain, status and (internal) receiver of withdrawal j, without building
 * the record: the book asks it of every withdrawal when it places counter legs.
 *
 * @example
 * withdrawalShape(ctx, 0, rngFor(ctx, 0)).dest; // 'on_chain' or 'internal_transfer'
 */
export function withdrawalShape(ctx: GenContext, j: number, rng: Rng): WithdrawalShape {
  const coin = cover(walletCoins, j, ctx, rng);
  const dest = cover(['on_chain', 'internal_transfer'] as const, j, ctx, rng, 1);
  const chainSpec = cover(chainsOf(coin), j, ctx, rng, 2);
  const status = j >= ctx.openFrom ? openStatuses[(j + ctx.coverOffset) % 3]! : rng.chance(0.95) ? 'success' : 'fail';
  const toUid = dest === 'on_chain' ? '' : ctx.peers[j % Math.max(1, ctx.peers.length)] ?? externalUid;
  return { coin, dest, chainSpec, status, toUid };
}

/**
 * Withdrawals (X3): on-chain with the chain's fee, internal with none, every status.
 *
 * @example
 * withdrawalGenerator(ctx, 0, Date.now(), 1_793_491_199_998_000_000n);
 */
export const withdrawalGenerator: RecordGenerator<WithdrawalRecord> = (ctx, j, t, id) => {
  const rng = rngFor(ctx, j);
  const { coin, dest, chainSpec, status, toUid } = withdrawalShape(ctx, j, rng);
  const chain = chainSpec?.chain ?? '';
  const onChain = dest === 'on_chain';
  return {
    orderId: id.toString(),
    tradeId: onChain ? (status === 'success' ? txHash(rng) : '') : (id + 11n).toString(),
    coin,
    dest,
    clientOid: rng.chance(0.5) ? hexId(rng) : '',
    type: 'withdraw',
    tag: onChain && chainSpec?.needTag === true ? String(rng.range(100_000, 999_999)) : '',
    size: coinAmount(coin, t, rng, 100, 5_000),
    fee: onChain ? `-${chainSpec?.withdrawFee ?? '0'}` : '0',
    status,
    toAddress: onChain ? chainAddress(chain, rng) : toUid,
    fromAddress: onChain ? chainAddress(chain, rng) : ctx.account.uid,
    confirm: status === 'success' && onChain ? String(rng.range(12, 64)) : '0',
    chain: onChain ? chain : '',
    cTime: String(t),
    uTime: String(status === 'pending' ? t : laterTime(ctx, t, rng, 1_800_000)),
  };
};
