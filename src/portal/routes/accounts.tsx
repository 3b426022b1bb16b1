/** @jsxImportSource hono/jsx */
import { readReconciliation, unsyncedSubAccounts } from '../../reports/reconcile.js';
import { visibleAccounts } from '../accountAccess.js';
import { healthOf } from '../accountHealth.js';
import { rankedWarnings } from '../accountWarnings.js';
import { AccountPage } from '../views/accountPage.js';
import { AccountsPage } from '../views/accountsPage.js';
import type { Guards, PortalDeps, PortalHono } from './shared.js';

/**
 * The accounts the user may see with their stored health counts (accountHealth.ts), and one
 * account's page: its warnings, most serious first, and its reconciliation.
 *
 * @example
 * accountRoutes(app, deps, guards(deps));
 */
export function accountRoutes(app: PortalHono, { pool, now, health, reportsDir }: PortalDeps, { only, allowedAccount }: Guards): void {
  app.get('/', only([]), (c) => c.redirect('/accounts', 303));

  app.get('/accounts', only([]), async (c) => {
    const { user } = c.get('session');
    const [accounts, byUid] = await Promise.all([visibleAccounts(pool, user), health.read()]);
    const rows = accounts.map((account) => ({ account, health: healthOf(byUid, account.uid) }));
    return c.html(<AccountsPage user={user} csrf={c.get('csrf')} rows={rows} nowMs={now()} />);
  });

  app.get('/accounts/:uid', only([]), async (c) => {
    const { user } = c.get('session');
    const uid = c.req.param('uid');
    const { accounts, refused } = await allowedAccount(c, uid);
    if (refused) return refused;
    const account = accounts.find((a) => a.uid === uid)!;
    const warnings = rankedWarnings(healthOf(await health.read(), uid), { imported: account.kind === 'imported wallet' });
    const client = await pool.connect();
    try {
      const rows = await readReconciliation(client, uid, reportsDir);
      // As `tradeledger reconcile` notes it: sub-accounts not synced may hold the missing transfers.
      const [unsynced] = await unsyncedSubAccounts(client, rows);
      return c.html(<AccountPage user={user} csrf={c.get('csrf')} account={account} warnings={warnings} rows={rows} unsynced={unsynced} />);
    } finally {
      client.release();
    }
  });
}
