/** @jsxImportSource hono/jsx */
import type { PortalUser } from '../portalUser.js';
import type { VisibleAccount } from '../accountAccess.js';

/**
 * The account picker of the report, gains and charts forms: the accounts this user may see, and
 * "All accounts" for an admin only (an accountant's "all" would be refused anyway).
 *
 * @example
 * <AccountSelect user={user} accounts={accounts} selected="1000000001" />
 */
export function AccountSelect(props: { user: PortalUser; accounts: VisibleAccount[]; selected: string }) {
  return (
    <label>Account
      <select name="account">
        {props.user.role === 'admin' && <option value="" selected={props.selected === ''}>All accounts</option>}
        {props.accounts.map((a) => <option value={a.uid} selected={a.uid === props.selected}>{a.name} ({a.uid})</option>)}
      </select>
    </label>
  );
}
