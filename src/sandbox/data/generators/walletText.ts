import type { Rng } from '../rng.js';
import { hex8, hexId } from './genContext.js';

/**
 * A chain transaction hash: 64 hex digits.
 *
 * @example
 * txHash(rng).length; // 64
 */
export function txHash(rng: Rng): string {
  return hexId(rng) + hexId(rng);
}

/**
 * A chain address in the style of the chain.
 *
 * @example
 * chainAddress('TRC20', rng); // 'T...'
 */
export function chainAddress(chain: string, rng: Rng): string {
  const hex = hexId(rng) + hex8(rng.u32());
  if (chain === 'TRC20') return `T${hex.slice(0, 33)}`;
  if (chain === 'BTC' || chain === 'LTC' || chain === 'DOGE') return `bc1q${hex.slice(0, 38)}`;
  if (chain === 'SOL' || chain === 'XRP') return `r${hex.slice(0, 32)}`;
  return `0x${hex}`;
}

/** A uid outside the world, for internal deposits and withdrawals of accounts without a family. */
export const externalUid = '1999999999';
