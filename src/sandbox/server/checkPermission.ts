import type { EndpointDef, Permission } from '../../api/endpoints.js';
import type { SandboxKey } from '../world.js';
import { ApiFailure } from './ApiFailure.js';

const trade: Permission[] = ['spot_trade', 'margin_trade', 'contract_trade'];

/**
 * Refuses a key without the endpoint's permission (40014). `read` is met by any permission
 * (trade permissions are read-write); `write` needs any trade permission; a named trade
 * permission must be held exactly.
 *
 * @example
 * checkPermission(endpoints.placeSpotOrder, readOnlyKey); // throws 40014 "need spot_trade permissions"
 */
export function checkPermission(endpoint: EndpointDef, key: SandboxKey): void {
  const need = endpoint.permission;
  if (need === null) return;
  const ok = need === 'read' ? key.perms.length > 0
    : need === 'write' ? key.perms.some((p) => trade.includes(p))
      : key.perms.includes(need);
  if (!ok) throw ApiFailure.of('40014', need === 'write' ? trade.join(' or ') : need);
}
