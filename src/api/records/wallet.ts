import type { Str } from './envelope.js';

/** Spec §2.15, E20 element. `dest` is `internal` in one place of the spec and `internal_transfer` in another. */
export interface DepositRecord {
  orderId: Str; tradeId: Str; coin: Str; type: 'deposit';
  dest: 'on_chain' | 'internal' | 'internal_transfer';
  size: Str; status: 'pending' | 'fail' | 'success';
  fromAddress: Str; toAddress: Str; chain: Str; cTime: Str; uTime: Str;
}

/** X3 withdrawal record. */
export interface WithdrawalRecord {
  orderId: Str; tradeId: Str; coin: Str; dest: 'on_chain' | 'internal_transfer'; clientOid: Str;
  type: 'withdraw'; tag: Str; size: Str; fee: Str; status: 'pending' | 'fail' | 'success';
  toAddress: Str; fromAddress: Str; confirm: Str; chain: Str; cTime: Str; uTime: Str;
}

export const accountTypes = ['spot', 'p2p', 'coin_futures', 'usdt_futures', 'usdc_futures', 'crossed_margin', 'isolated_margin'] as const;
export type AccountType = (typeof accountTypes)[number];

/** Spec §2.16, E19 element. */
export interface TransferRecord {
  coin: Str; status: 'Successful' | 'Failed' | 'Processing'; toType: AccountType; fromType: AccountType;
  size: Str; ts: Str; clientOid: Str; transferId: Str; fromUserId: Str; toUserId: Str;
}
