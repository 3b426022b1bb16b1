import { createHash } from 'node:crypto';

/**
 * How a list entry that is not a JSON object (a string, null, a number, an array) is kept: under
 * a stand-in id derived from its content (the same entry always gets the same id, so a rerun
 * does not double it), with a problem naming what it was. Nothing can be read from such an entry,
 * but the README promises that nothing the exchange sent is dropped.
 *
 * @example
 * unreadableEntry(42) // { standIn: 'unreadable-…', problem: 'the page entry is a number, not a record object; kept raw under unreadable-…' }
 */
export function unreadableEntry(value: unknown): { standIn: string; problem: string } {
  const what = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
  const standIn = `unreadable-${createHash('sha256').update(JSON.stringify(value) ?? 'undefined').digest('hex').slice(0, 16)}`;
  return { standIn, problem: `the page entry is ${what}, not a record object; kept raw under ${standIn}` };
}

/**
 * True for a JSON object (not null, not an array).
 *
 * @example
 * isRecord({}) // true; isRecord([1]) // false
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
