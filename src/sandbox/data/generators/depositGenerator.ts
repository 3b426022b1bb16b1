import type { DepositRecord } from '../../../api/records/wallet.js';
import { chainsOf, walletCoins } from '../catalog.js';
import { decimalText } from '../decimalText.js';
import { cover, laterTime, rngFor, type RecordGenerator } from './genContext.js';
import { chainAddress, externalUid, txHash } from './walletText.js';

const dests = ['on_chain', 'internal', 'on_chain', 'internal_transfer'] as const;
const openStatuses = ['pending', 'fail', 'success'] as const;

/**
 * Deposits (E20): on-chain and internal (`dest` spelled both `internal` and `internal_transfer`), every status.
 *
 * @example
 * depositGenerator(ctx, 0, Date.now(), 1_793_491_199_998_000_000n);
 */
export const depositGenerator: RecordGenerator<DepositRecord> = (ctx, j, t, id) => {
  const rng = rngFor(ctx, j);
  const coin = cover(walletCoins, j, ctx, rng);
  const dest = cover(dests, j, ctx, rng, 1);
  const chain = chainsOf(coin)[0]?.chain ?? '';
  const status = j >= ctx.openFrom ? openStatuses[(j + ctx.coverOffset) % 3]! : rng.chance(0.95) ? 'success' : 'fail';
  const onChain = dest === 'on_chain';
  return {
    orderId: id.toString(),
    tradeId: onChain ? txHash(rng) : (id + 17n).toString(),
    coin,
    type: 'deposit',
    dest,
    size: decimalText(rng.range(1, 900_000_000), 6),
    status,
    // Internal deposits from the account's own family are the counter legs of that account's
    // internal withdrawals (counterLegs.ts); the ones generated here come from another user.
    fromAddress: onChain ? chainAddress(chain, rng) : externalUid,
    toAddress: onChain ? chainAddress(chain, rng) : ctx.account.uid,
    chain: onChain ? chain : '',
    cTime: String(t),
    uTime: String(status === 'pending' ? t : laterTime(ctx, t, rng, 1_800_000)),
  };
};
