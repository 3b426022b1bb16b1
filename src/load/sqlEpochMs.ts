/**
 * SQL turning an expression of Unix milliseconds (a bigint) into timestamptz with integer
 * arithmetic: exact, unlike to_timestamp's float seconds.
 *
 * @example
 * sqlEpochMs("(r->>'cTime')::bigint") // ('epoch'::timestamptz + (r->>'cTime')::bigint * interval '1 millisecond')
 */
export function sqlEpochMs(ms: string): string {
  return `('epoch'::timestamptz + ${ms} * interval '1 millisecond')`;
}
