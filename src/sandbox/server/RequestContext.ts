import type { EndpointDef } from '../../api/endpoints.js';
import type { SandboxAccount, SandboxKey, World } from '../world.js';
import type { RequestParams } from './RequestParams.js';

/** What a route handler gets: the world, the authenticated caller and the parsed request. */
export interface RequestContext {
  world: World;
  endpoint: EndpointDef;
  /** The server clock (sandbox time plus any test skew), Unix ms. */
  now: number;
  /** Null on public endpoints. */
  caller: SandboxAccount | null;
  key: SandboxKey | null;
  /** Query parameters (GET) or the top-level JSON body fields (POST). */
  params: RequestParams;
  /** The parsed JSON body of a POST, as sent. */
  body: unknown;
  /** ACCESS-TIMESTAMP of a signed request (receiveWindow counts from it when requestTime is absent). */
  signedAt: number | null;
  /** Span of E5 and the tax endpoints, in days (30 or 366 in the public docs). */
  taxSpanDays: number;
}

/** A route: returns the envelope's `data` or throws an ApiFailure / WorldError. */
export type Handler = (ctx: RequestContext) => unknown;

/** The caller of a signed endpoint; handlers of signed routes may rely on it. */
export function callerOf(ctx: RequestContext): SandboxAccount {
  if (!ctx.caller) throw new Error('signed route reached without a caller');
  return ctx.caller;
}
