/** @jsxImportSource hono/jsx */
import { AccountSelect } from './accountSelect.js';
import type { PortalUser } from '../portalUser.js';
import type { VisibleAccount } from '../accountAccess.js';
import { poolingByFlag, returnCurrencies, ruleSet, ruleSetNames, ruleZones } from '../../gains/ruleSets.js';
import { gainsFiles } from '../../gains/gainsRequest.js';
import { DemoCheckbox } from './demoCheckbox.js';

/**
 * The note under a form's Fiat field (the gains form's and the report form's): which currencies a
 * value can be in (USD, and those the imported ECB rates hold), and what any other gives.
 *
 * @example
 * fiatsNote(['USD', 'EUR'], 'every value is empty.'); // 'Values in USD, or in EUR (the ECB rates imported). In any other currency every value is empty.'
 */
export function fiatsNote(valueCurrencies: string[], otherwise: string): string {
  const others = valueCurrencies.filter((c) => c !== 'USD');
  return others.length > 0
    ? `Values in USD, or in ${others.join(', ')} (the ECB rates imported). In any other currency ${otherwise}`
    : `Values in USD only: no ECB rates are imported, so in any other currency ${otherwise} An administrator imports them with tradeledger import fx eurofxref-hist.zip.`;
}

/**
 * The gains section of the report page: rules, tax year, fiat and time zone for one of the
 * user's accounts; downloads the folder `tradeledger gains` writes, as a zip or one file.
 *
 * @example
 * <GainsForm user={user} csrf={csrf} accounts={accounts} account="1000000001" year="2025" valueCurrencies={['USD']} />
 */
export function GainsForm(props: { user: PortalUser; csrf: string; accounts: VisibleAccount[]; account: string; year: string; valueCurrencies: string[] }) {
  // Each country's return is in its own currency (RuleSet.currency, with the authority's words).
  const returns = returnCurrencies();
  const zones = ruleZones();
  const files = [...new Set(ruleSetNames.flatMap((r) => gainsFiles(r)))];
  return (
    <section class="card gains" id="gains">
      <h2>Capital gains</h2>
      <p class="muted">The folder <code>tradeledger gains</code> writes (gains.csv, income.csv, data-quality notes, summaries, Form 8949 for US rules and the manifest), computed when you press a button; a busy account's year takes a while. A year whose figures are not yet the return's (not over, not synced to its end, values or costs missing) downloads with NOT-READY-TO-FILE in its name, and its summary.txt says why.</p>
      {/* A POST: a gains run computes and stores a run (gains_* tables); a GET would let a link start one. */}
      <form id="gains-form" class="report-form" method="post" action="/gains/download/zip">
        <input type="hidden" name="_csrf" value={props.csrf} />
        <div class="grid">
          {/* A row of its own: the rule sets' names are long (uk's and au's ~600 px), and a name cut off in the closed list is a guess. */}
          <label class="full-row">Rules
            <select name="rules">{ruleSetNames.map((r) => <option value={r}>{r}: {ruleSet(r).title}{r === 'uk' ? ' (tax year from 6 April)' : r === 'au' ? ' (tax year from 1 July)' : ''}</option>)}</select>
          </label>
          <AccountSelect user={props.user} accounts={props.accounts} selected={props.account} />
          <label>Tax year
            <input name="year" inputmode="numeric" pattern="\d{4}" value={props.year} class="short" />
          </label>
          {/* Empty: the rules' own currency and zone (parseGainsRequest), so the defaults give the return's figures. */}
          <label>Fiat
            <input name="fiat" value="" placeholder="auto" title={`Empty: the currency of the rules' return (${returns}; USD for the others)`} pattern="[A-Za-z]{3}" class="short" list="gains-fiats" />
            <datalist id="gains-fiats">{props.valueCurrencies.map((c) => <option value={c} />)}</datalist>
          </label>
          <label>Time zone
            <input name="tz" value="" placeholder="the rules' zone" title={`Empty: the rules' own zone (${zones}); us, ca and au have several and need yours`} list="zones" />
          </label>
          <label>Pools ({poolingByFlag().join(', ')})
            <select name="pools"><option value="universal">One across wallets</option><option value="wallet">One per account or wallet</option></select>
          </label>
          <label>File
            <select name="file">{files.map((f) => <option value={f}>{f}{f === 'form-8949.csv' ? ' (US rules)' : ''}</option>)}</select>
          </label>
        </div>
        {/* A fiat without ECB rates values every row at 0 (incompleteFigures.ts): say which have them before a run. */}
        <p class="muted" id="gains-fiats-note">
          {fiatsNote(props.valueCurrencies, 'every value is unpriced and counts as 0; the files then say NOT READY TO FILE.')}
          {` A country's rules file in its own currency (${returns}); in another the files say NOT READY TO FILE.`}
          {` Left empty (auto), Fiat is the rules' own currency (USD for fifo, lifo, hifo and average) and Time zone the rules' own zone (${zones}); us, ca and au have several, so the form asks for yours, as the CLI does.`}
        </p>
        <DemoCheckbox id="gains-include-demo" checked={false} />
        <div class="actions">
          <button type="submit" class="button primary" id="gains-zip">Download gains folder as zip</button>
          <button type="submit" class="button" formaction="/gains/download/file" id="gains-file">Download this file</button>
        </div>
      </form>
    </section>
  );
}
