/** @jsxImportSource hono/jsx */
import { Layout } from './layout.js';
import { AccountSelect } from './accountSelect.js';
import type { PortalUser } from '../portalUser.js';
import type { VisibleAccount } from '../accountAccess.js';

/**
 * The charts page: holdings per coin at month end, realized PnL per month and fees per month,
 * every value in the chosen fiat (one axis, one unit per chart). The canvases name their data
 * URL; /assets/charts.js draws them (no inline script).
 *
 * @example
 * c.html(<ChartsPage user={user} csrf={csrf} accounts={accounts} account="1" year="2025" tz="UTC" fiat="USD" dataUrl="/charts/data?..." />)
 */
export function ChartsPage(props: { user: PortalUser; csrf: string; accounts: VisibleAccount[]; account: string; year: string; tz: string; fiat: string; dataUrl: string }) {
  return (
    <Layout title="Charts" user={props.user} csrf={props.csrf} active="charts" scripts={['/assets/chart.umd.min.js', '/assets/charts.js']}>
      <div class="page-head">
        <h1>Charts</h1>
        <p class="muted">Every value in {props.fiat}, valued as the valued ledger values it (docs/valuation.md): holdings at each month's end across all wallets at that month's last price, PnL and fees as booked. Months up to now only.</p>
      </div>
      <form class="card report-form" method="get" action="/charts">
        <div class="grid">
          <AccountSelect user={props.user} accounts={props.accounts} selected={props.account} />
          <label>Tax year<input name="year" value={props.year} class="short" /></label>
          <label>Time zone<input name="tz" value={props.tz} /></label>
          <label>Currency<input name="fiat" value={props.fiat} class="short" /></label>
        </div>
        <div class="actions"><button type="submit" class="button primary">Show</button></div>
      </form>
      <div id="charts" data-src={props.dataUrl}>
        <section class="card chart-card"><h2>Holdings at month end, in {props.fiat}</h2><div class="chart-box tall"><canvas id="balance-chart"></canvas></div></section>
        <div class="two-col">
          <section class="card chart-card"><h2>Realized PnL per month, in {props.fiat}</h2><div class="chart-box"><canvas id="pnl-chart"></canvas></div></section>
          <section class="card chart-card"><h2>Fees paid per month, in {props.fiat}</h2><div class="chart-box"><canvas id="fees-chart"></canvas></div></section>
        </div>
        <p class="muted" id="charts-status">Loading…</p>
      </div>
    </Layout>
  );
}
