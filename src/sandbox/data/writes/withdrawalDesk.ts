import type { WithdrawalRecord } from '../../../api/records/wallet.js';
import { chainsOf, walletCoins } from '../catalog.js';
import { Decimal } from 'decimal.js';
import { hashKey, recordRng } from '../rng.js';
import { fail, oneOf, positiveDecimal, required } from './writeChecks.js';
import type { WorldCore } from './worldCore.js';

/** E9 accepts only these coins (spec E9). */
export const brokerWithdrawalCoins: readonly string[] = ['BTC', 'ETH', 'USDT', 'USDC', 'TRX', 'XRP', 'LTC', 'SOL'];

function record(core: WorldCore, uid: string, w: { coin: string; dest: 'on_chain' | 'internal_transfer'; chain: string; address: string; size: string; tag: string; clientOid: string }): { orderId: string; clientOid: string } {
  const series = core.book.get(uid, 'withdrawals', 'all');
  if (w.clientOid !== '' && series.query({ limit: 1, filter: (r) => r.clientOid === w.clientOid }).length > 0) {
    fail('40017', `clientOid '${w.clientOid}' duplicates an earlier withdrawal; use a new clientOid`);
  }
  const onChain = w.dest === 'on_chain';
  const fee = onChain ? chainsOf(w.coin).find((c) => c.chain === w.chain)?.withdrawFee ?? '0' : '0';
  // The size and the fee leave the spot wallet when it settles; what pending withdrawals will
  // take is already spoken for, so the books never go below zero.
  const pending = series.query({ limit: 1000, startTime: core.now() - 30 * 86_400_000, filter: (r) => r.status === 'pending' && r.coin === w.coin });
  const reserved = pending.reduce((sum, r) => sum.plus(r.size.replace(/^-/, '')).plus(r.fee.replace(/^-/, '')), new Decimal(0));
  const have = new Decimal(core.book.spotBalance(uid, w.coin)).minus(reserved);
  const need = new Decimal(w.size).plus(fee);
  if (need.gt(have)) fail('40017', `size: insufficient balance, the withdrawal needs ${need.toFixed()} ${w.coin} (size plus fee) and the spot wallet has ${have.toFixed()} free`);
  const { record: r } = core.book.append(uid, 'withdrawals', 'all', core.now(), (id, t): WithdrawalRecord => ({
    orderId: id.toString(), tradeId: onChain ? '' : (id + 11n).toString(), coin: w.coin, dest: w.dest, clientOid: w.clientOid,
    type: 'withdraw', tag: w.tag, size: w.size, fee: fee === '0' ? '0' : `-${fee}`, status: 'pending', toAddress: w.address,
    fromAddress: onChain ? '' : uid, confirm: '0', chain: onChain ? w.chain : '', cTime: String(t), uTime: String(t),
  }));
  return { orderId: r.orderId, clientOid: w.clientOid };
}

function clientOidOf(core: WorldCore, uid: string, given: string | undefined): string {
  if (given !== undefined && given !== '') return given;
  const r = recordRng(hashKey(core.seed, uid, 'withdrawClientOid'), core.nextSerial());
  return `${r.u32()}${r.u32()}`;
}

/**
 * E18 spot withdrawal, or, when the request names a `subUid`, E9 broker sub-account withdrawal
 * (main ND-broker accounts only; BTC ETH USDT USDC TRX XRP LTC SOL only). Either leaves a pending
 * record in the paying account's withdrawals at now().
 *
 * @example
 * withdraw(core, uid, { coin: 'USDT', transferType: 'on_chain', chain: 'TRC20', address: 'T...', size: '20' });
 * withdraw(core, mainUid, { subUid, coin: 'BTC', dest: 'internal_transfer', address: '123', amount: '0.1' });
 */
export function withdraw(core: WorldCore, uid: string, req: Record<string, string | undefined>): { orderId: string; clientOid: string } {
  const caller = core.account(uid) ?? fail('40034', 'uid');
  const broker = req['subUid'] !== undefined;
  let payer = uid;
  if (broker) {
    if (!caller.main || !caller.broker) fail('40014', 'ND broker main-account');
    const subUid = required(req, 'subUid');
    if (!caller.subUids.includes(subUid)) fail('40034', 'subUid');
    payer = subUid;
  }
  const coin = required(req, 'coin');
  if (broker && !brokerWithdrawalCoins.includes(coin)) fail('40017', `coin '${coin}' cannot be withdrawn here; use one of ${brokerWithdrawalCoins.join(' ')}`);
  if (!walletCoins.includes(coin)) fail('40034', 'coin');
  const dest = oneOf(required(req, broker ? 'dest' : 'transferType'), broker ? 'dest' : 'transferType', ['on_chain', 'internal_transfer'] as const);
  const address = required(req, 'address');
  const size = positiveDecimal(required(req, broker ? 'amount' : 'size'), broker ? 'amount' : 'size');
  let chain = req['chain'] ?? '';
  if (dest === 'on_chain') {
    if (chain === '' && !broker) fail('40019', 'chain');
    const chains = chainsOf(coin);
    const spec = chain === '' ? chains[0] : chains.find((c) => c.chain.toLowerCase() === chain.toLowerCase());
    if (spec === undefined) fail('40017', `chain '${chain}' is not a chain of ${coin}; use ${chains.map((c) => c.chain).join(', ')}`);
    if (new Decimal(size).lt(spec.min)) fail('40017', `size ${size} is below the minimum withdrawal of ${spec.min} ${coin}`);
    chain = spec.chain;
  } else if (!broker) {
    const inner = oneOf(req['innerToType'] ?? 'uid', 'innerToType', ['email', 'mobile', 'uid'] as const);
    if (inner === 'mobile') required(req, 'areaCode');
  }
  return record(core, payer, { coin, dest, chain, address, size, tag: req['tag'] ?? '', clientOid: clientOidOf(core, payer, req['clientOid']) });
}
