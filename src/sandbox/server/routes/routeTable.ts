import { endpointList, type EndpointDef, type EndpointName } from '../../../api/endpoints.js';
import type { Handler } from '../RequestContext.js';
import { marginRoutes } from './marginRoutes.js';
import { mixRoutes } from './mixRoutes.js';
import { publicRoutes } from './publicRoutes.js';
import { candleRoutes } from './candleRoutes.js';
import { spotReadRoutes } from './spotReadRoutes.js';
import { spotWriteRoutes } from './spotWriteRoutes.js';
import { taxRoutes } from './taxRoutes.js';
import { userRoutes } from './userRoutes.js';
import { walletRoutes } from './walletRoutes.js';

export interface Route {
  endpoint: EndpointDef & { name: EndpointName };
  handler: Handler;
}

const handlers: Record<EndpointName, Handler> = {
  ...spotWriteRoutes, ...spotReadRoutes, ...marginRoutes, ...mixRoutes, ...walletRoutes, ...userRoutes, ...taxRoutes, ...publicRoutes, ...candleRoutes,
};

/**
 * Path -> route for every endpoint of the shared table. The `Record<EndpointName, Handler>` type
 * makes a new endpoint without a handler a compile error.
 *
 * @example
 * routeTable().get('/api/v2/tax/margin-record')?.endpoint.id; // 'E5'
 */
export function routeTable(): Map<string, Route> {
  return new Map(endpointList.map((endpoint) => [endpoint.path, { endpoint, handler: handlers[endpoint.name] }]));
}
