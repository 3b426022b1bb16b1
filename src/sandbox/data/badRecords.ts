import type { HistoryResource } from '../world.js';

/**
 * Deliberately bad records, present in every world (in the main account's generated history) so
 * the sync's data-quality handling always has something to catch. Each sits at a fixed position
 * of its series: index floor(count / 3) of the first chunk.
 *
 * - spotOrders: `feeDetail` is truncated, malformed JSON.
 * - deposits: `dest` holds `lightning`, a value the spec does not list.
 * - spotBills: the non-key field `balance` is missing.
 */
export const badRecordPlan: readonly { resource: HistoryResource; partition: string; problem: string }[] = [
  { resource: 'spotOrders', partition: 'all', problem: 'malformed feeDetail JSON' },
  { resource: 'deposits', partition: 'all', problem: "unknown enum value dest='lightning'" },
  { resource: 'spotBills', partition: 'all', problem: 'missing non-key field balance' },
];

/**
 * The index of the bad record in a first chunk of `count` records.
 *
 * @example
 * badRecordIndex(64); // 21
 */
export function badRecordIndex(count: number): number {
  return Math.floor(count / 3);
}

/**
 * Spoils a generated record as the plan says; returns it unchanged for other resources.
 *
 * @example
 * spoil('spotBills', bill); // the bill without its balance
 */
export function spoil(resource: HistoryResource, record: object): object {
  const r = { ...record } as Record<string, unknown>;
  if (resource === 'spotOrders') {
    r['feeDetail'] = '{"newFees":{"c":0,"d":0,"deduction":false,"r":-0.0012,"t":-0.0012';
  } else if (resource === 'deposits') {
    r['dest'] = 'lightning';
  } else if (resource === 'spotBills') {
    delete r['balance'];
  }
  return r;
}
