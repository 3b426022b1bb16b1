/** @jsxImportSource hono/jsx */
import { Layout } from './layout.js';
import { AccountSelect } from './accountSelect.js';
import type { PortalUser } from '../portalUser.js';
import type { VisibleAccount } from '../accountAccess.js';

/**
 * The charts page: balance per coin over time, realized PnL per month and fees per month. The
 * canvases name their data URL; /assets/charts.js draws them (no inline script).
 *
 * @example
 * c.html(<ChartsPage user={user} csrf={csrf} accounts={accounts} account="1" year="2025" tz="UTC" dataUrl="/charts/data?..." />)
 */
export function ChartsPage(props: { user: PortalUser; csrf: string; accounts: VisibleAccount[]; account: string; year: string; tz: string; dataUrl: string }) {
  return (
    <Layout title="Charts" user={props.user} csrf={props.csrf} active="charts" scripts={['/assets/chart.umd.min.js', '/assets/charts.js']}>
      <div class="page-head">
        <h1>Charts</h1>
        <p class="muted">From the same ledger and report queries as the downloads. Balances are month-end, across all wallets.</p>
      </div>
      <form class="card report-form" method="get" action="/charts">
        <div class="grid">
          <AccountSelect user={props.user} accounts={props.accounts} selected={props.account} />
          <label>Tax year<input name="year" value={props.year} class="short" /></label>
          <label>Time zone<input name="tz" value={props.tz} /></label>
        </div>
        <div class="actions"><button type="submit" class="button primary">Show</button></div>
      </form>
      <div id="charts" data-src={props.dataUrl}>
        <section class="card chart-card"><h2>Balance per coin, month end</h2><div class="small-multiples" id="balance-charts"></div></section>
        <div class="two-col">
          <section class="card chart-card"><h2>Realized PnL per month</h2><canvas id="pnl-chart" height="260"></canvas></section>
          <section class="card chart-card"><h2>Fees paid per month</h2><canvas id="fees-chart" height="260"></canvas></section>
        </div>
        <p class="muted" id="charts-status">Loading…</p>
      </div>
    </Layout>
  );
}
