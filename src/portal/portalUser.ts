/** A portal user as the routes see it (never the password hash). */
export interface PortalUser {
  id: string;
  username: string;
  role: 'admin' | 'accountant';
}

/** The roles of `tradeledger users add --role`. */
export const portalRoles = ['admin', 'accountant'] as const;
export type PortalRole = (typeof portalRoles)[number];
