/** Which way a classified row's coins moved: out of the account, into it, or either. */
export type Direction = 'out' | 'in' | 'either';

/** One classification a correction can give a deposit or withdrawal (sql/migrations/0067_ledger_corrections.sql's CHECK list). */
export interface Classification {
  name: string;
  direction: Direction;
  /** What it does to the tax figures, as `classify kinds` and the portal say it. */
  meaning: string;
}

/**
 * Every classification, in the order the CLI's help and the portal list them. The tax meaning of
 * each (and its sources) is in docs/ledger.md#corrections; gains apply it in src/gains/ledgerEvents.ts.
 */
export const classifications: readonly Classification[] = [
  { name: 'gift_sent', direction: 'out', meaning: 'a gift to someone else: a disposal at market value (no income, no expense)' },
  { name: 'payment', direction: 'out', meaning: 'paid for goods or services: a disposal at market value' },
  { name: 'lost', direction: 'out', meaning: 'lost (keys, a failed send): a disposal for nothing, a loss of its cost' },
  { name: 'stolen', direction: 'out', meaning: 'stolen (a hack, a scam): a disposal for nothing, a loss of its cost' },
  { name: 'gift_received', direction: 'in', meaning: 'a gift from someone else: an acquisition at market value, not income' },
  { name: 'income', direction: 'in', meaning: 'other income: income at market value, and an acquisition at that cost' },
  { name: 'income_staking', direction: 'in', meaning: 'staking reward: income at market value, and an acquisition at that cost' },
  { name: 'income_mining', direction: 'in', meaning: 'mining: income at market value, and an acquisition at that cost' },
  { name: 'income_airdrop', direction: 'in', meaning: 'airdrop: income at market value, and an acquisition at that cost' },
  { name: 'income_interest', direction: 'in', meaning: 'lending interest: income at market value, and an acquisition at that cost' },
  { name: 'income_salary', direction: 'in', meaning: 'salary paid in crypto: income at market value, and an acquisition at that cost' },
  { name: 'income_reward', direction: 'in', meaning: 'a reward or bonus: income at market value, and an acquisition at that cost' },
  { name: 'own_wallet', direction: 'either', meaning: 'a move to or from your own wallet elsewhere (--other names it): not a disposal, the cost moves with the coins' },
  { name: 'not_taxable', direction: 'either', meaning: 'not taxable: out, no disposal (the coins just leave); in, an acquisition at market value without income' },
];

/** The names, for flag choices and form options. */
export const classificationNames = classifications.map((c) => c.name);

/**
 * The classification of that name, or undefined.
 *
 * @example
 * classificationOf('gift_sent')?.direction; // 'out'
 */
export function classificationOf(name: string): Classification | undefined {
  return classifications.find((c) => c.name === name);
}
