import type { Str } from './envelope.js';
import type { Permission } from '../endpoints.js';

/** Spec §2.13, E10 element. */
export interface SubAccount {
  subAccountUid: Str; subAccountName: Str; status: 'normal' | 'freeze' | 'del'; permList: Permission[];
  label: Str; accountType: Str; bindingTime: Str; cTime: Str; uTime: Str;
}

/** E10 page. `endId` is a Number in the spec's sample although documented as String. */
export interface SubAccountPage {
  endId: number | string | null;
  subAccountList: SubAccount[];
}

/** Spec §2.14 listing element (E8). Never carries a secret. */
export interface SubAccountApiKey {
  subAccountUid: Str; subAccountApiKey: Str; permList: Permission[]; label: Str; ipList: Str[];
}

/** E6/E7 creation result: the one place a secret is returned. */
export interface CreatedSubAccountApiKey extends SubAccountApiKey {
  subAccountName?: Str;
  secretKey: Str;
}
