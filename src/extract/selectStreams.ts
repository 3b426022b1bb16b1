import { TradeledgerError } from '../errors.js';
import { allStreams } from './streamRegistry.js';
import type { Stream } from './streamDef.js';

/**
 * The streams a run covers: all of them (but the opt-in ones), or those named. An unknown name
 * is a config error listing the valid ones.
 *
 * @example
 * selectStreams(['deposits', 'withdrawals'])
 */
export function selectStreams(names: readonly string[] | undefined): Stream[] {
  if (names === undefined || names.length === 0) return allStreams.filter((s) => s.kind !== 'snapshot' || !s.optIn);
  const unknown = names.filter((n) => !allStreams.some((s) => s.name === n));
  if (unknown.length > 0) {
    throw new TradeledgerError('CONFIG_INVALID', `unknown stream ${unknown.map((u) => `"${u}"`).join(', ')} in --streams`, {
      kind: 'config', hint: `use a comma-separated list of: ${allStreams.map((s) => s.name).join(', ')}`,
    });
  }
  return allStreams.filter((s) => names.includes(s.name));
}
