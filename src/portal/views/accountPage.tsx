/** @jsxImportSource hono/jsx */
import { Layout } from './layout.js';
import type { PortalUser } from '../portalUser.js';
import type { VisibleAccount } from '../accountAccess.js';
import type { AccountWarning } from '../accountWarnings.js';
import type { ReconciliationRow, UnsyncedSubAccounts } from '../../reports/reconcile.js';
import { reconciliationCounts, reconciliationStatuses } from '../../reports/reconcile.js';

const statusLabel: Record<ReconciliationRow['status'], string> = {
  match: 'Match', opening_balance: 'Opening balance', unexplained: 'Unexplained', no_snapshot: 'Not reported',
};
const statusBadge: Record<ReconciliationRow['status'], string> = {
  match: 'badge-ok', opening_balance: 'badge-warn', unexplained: 'badge-error', no_snapshot: 'badge-muted',
};

/**
 * One account: its warnings ranked by what they do to a tax figure, then every wallet and coin
 * with the exchange's balance, the ledger's and the difference, classed and explained (the
 * reconciliation view (sql/schema/views/reconciliation.sql), the rows reconciliation.csv holds).
 *
 * @example
 * c.html(<AccountPage user={user} csrf={csrf} account={account} warnings={ws} rows={rows} />)
 */
export function AccountPage(props: { user: PortalUser; csrf: string; account: VisibleAccount; warnings: AccountWarning[]; rows: ReconciliationRow[]; unsynced?: UnsyncedSubAccounts | undefined }) {
  const counts = reconciliationCounts(props.rows);
  const rank = (s: ReconciliationRow['status']) => reconciliationStatuses.indexOf(s);
  const rows = [...props.rows].sort((a, b) => rank(a.status) - rank(b.status) || a.wallet.localeCompare(b.wallet) || a.coin.localeCompare(b.coin));
  const level = (w: AccountWarning) => (w.severity === 'red' ? 'error' : w.severity === 'amber' ? 'warn' : 'info');
  return (
    <Layout title={props.account.name} user={props.user} csrf={props.csrf} active="accounts">
      <div class="page-head">
        <h1>{props.account.name}</h1>
        <p class="muted mono">UID {props.account.uid} · {props.account.kind}</p>
      </div>
      <section class="card">
        <h2>What to check before filing</h2>
        {props.warnings.length === 0
          ? <p class="notice" id="no-warnings">Nothing affects a tax figure: every balance is explained and every row is valued.</p>
          : (
            <ul class="warnings" id="account-warnings">
              {props.warnings.map((w) => <li class={`warning-${level(w)}`} data-severity={w.severity} data-code={w.code}>{w.text}{w.fix && <span class="muted"> Fix: {w.fix}.</span>}</li>)}
            </ul>
          )}
      </section>
      <section class="card" id="reconciliation">
        <h2>Balances against the exchange</h2>
        <p class="muted">
          {props.rows.length} balance(s): <strong>{counts.match}</strong> match, <strong>{counts.opening_balance}</strong> opening balance,{' '}
          <strong>{counts.unexplained}</strong> unexplained, <strong>{counts.no_snapshot}</strong> not reported by the exchange.
          The exchange's figure is its newest balance (spot and futures bills, futures account); the ledger is summed up to that time.
          An opening balance was held before the first record read: where the exchange still serves that history,{' '}
          <code>tradeledger sync --since</code> an earlier date reads it; otherwise it has no known cost until you give one
          (<code>tradeledger reconcile --out DIR</code> writes opening-balances.csv to fill and import).
        </p>
        {props.unsynced && (
          <p class="notice warning-error" id="unsynced-sub-accounts">
            {props.unsynced.unexplained} unexplained balance(s) here may come from this account's sub-account(s){' '}
            <span class="mono">{props.unsynced.subAccounts.join(', ')}</span>, which are not synced: a transfer a sub-account made is
            listed only to that sub-account's key, so this ledger lacks it.{' '}
            <span class="muted">Fix: add them under "subAccounts" in the sync's config file (README), sync, and look again.</span>
          </p>
        )}
        <div class="table-wrap">
          <table class="data">
            <thead><tr><th>Wallet</th><th>Coin</th><th>Exchange</th><th>Ledger</th><th>Difference</th><th>Status</th><th>Why</th></tr></thead>
            <tbody>
              {rows.map((r) => (
                <tr data-wallet={r.wallet} data-coin={r.coin} data-status={r.status}>
                  <td>{r.wallet}</td>
                  <td>{r.coin}</td>
                  <td class="num">{r.exchangeBalance ?? '–'}</td>
                  <td class="num">{r.ledgerBalance}</td>
                  <td class="num">{r.difference ?? '–'}</td>
                  <td><span class={`badge ${statusBadge[r.status]}`}>{statusLabel[r.status]}</span></td>
                  <td class="why">{r.status === 'match' ? '' : r.explanation}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <div class="actions">
        <a class="button primary" href={`/reports?account=${encodeURIComponent(props.account.uid)}`}>Reports</a>
        <a class="button" href={`/charts?account=${encodeURIComponent(props.account.uid)}`}>Charts</a>
        <a class="button" id="corrections-link" href={`/accounts/${encodeURIComponent(props.account.uid)}/corrections`}>Corrections</a>
        <a class="button" href="/accounts">All accounts</a>
      </div>
    </Layout>
  );
}
