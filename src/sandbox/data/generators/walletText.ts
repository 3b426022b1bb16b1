import type { Rng } from '../rng.js';

/**
 * A chain transaction hash: 64 hex digits.
 *
 * @example
 * txHash(rng).length; // 64
 */
export function txHash(rng: Rng): string {
  return Array.from({ length: 8 }, () => rng.u32().toString(16).padStart(8, '0')).join('');
}

/**
 * A chain address in the style of the chain.
 *
 * @example
 * chainAddress('TRC20', rng); // 'T...'
 */
export function chainAddress(chain: string, rng: Rng): string {
  const hex = Array.from({ length: 5 }, () => rng.u32().toString(16).padStart(8, '0')).join('');
  if (chain === 'TRC20') return `T${hex.slice(0, 33)}`;
  if (chain === 'BTC' || chain === 'LTC' || chain === 'DOGE') return `bc1q${hex.slice(0, 38)}`;
  if (chain === 'SOL' || chain === 'XRP') return `r${hex.slice(0, 32)}`;
  return `0x${hex}`;
}

/** A uid outside the world, for internal deposits and withdrawals of accounts without a family. */
export const externalUid = '1999999999';
