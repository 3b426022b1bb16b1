import { plainIp } from './authenticate.js';

const loopback = new Set(['127.0.0.1', '::1']);

/**
 * Whether a peer address is this machine: the unsigned /_sandbox/ controls answer only such
 * peers, even when the sandbox listens on all interfaces.
 *
 * @example
 * isLoopback('::ffff:127.0.0.1'); // true
 */
export function isLoopback(remoteAddress: string | undefined): boolean {
  const ip = plainIp(remoteAddress ?? '');
  return loopback.has(ip) || ip.startsWith('127.');
}
