import type pg from 'pg';
import { databaseOn } from '../db/databaseOn.js';
import { TradeledgerError } from '../errors.js';
import type { PortalUser } from '../portal/portalUser.js';

/**
 * The portal user who corrects an account, checked: the user must exist, and an accountant must
 * hold a grant on the account (portal_grants; an admin may correct every account). The same rule
 * the portal applies to every page that names an account (src/portal/accountAccess.ts).
 *
 * @example
 * const user = await correctingUser(client, 'anna', '1000000001'); // throws CORRECTION_NOT_GRANTED without a grant
 */
export async function correctingUser(db: pg.ClientBase | pg.Pool, username: string, account: string): Promise<PortalUser> {
  const user = await databaseOn(db).selectFrom('portal_users as u')
    .select((eb) => ['u.id', 'u.username', 'u.role', eb.exists(
      eb.selectFrom('portal_grants as g').select('g.user_id').whereRef('g.user_id', '=', 'u.id').where('g.account_uid', '=', account),
    ).as('granted')])
    .where((eb) => eb(eb.fn('lower', ['u.username']), '=', eb.fn('lower', [eb.val(username)])))
    .executeTakeFirst();
  if (!user) {
    throw new TradeledgerError('CORRECTION_UNKNOWN_USER', `there is no portal user "${username}"`, {
      kind: 'auth', hint: 'Name yourself with --user as a portal user (tradeledger users list; an admin adds one with tradeledger users add).',
    });
  }
  if (user.role !== 'admin' && !user.granted) {
    throw new TradeledgerError('CORRECTION_NOT_GRANTED', `${user.username} may not correct account ${account}: no grant on it`, {
      kind: 'auth', hint: `An admin grants it with: tradeledger users grant ${user.username} ${account}`,
    });
  }
  return { id: user.id, username: user.username, role: user.role };
}
