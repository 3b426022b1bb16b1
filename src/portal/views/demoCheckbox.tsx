/** @jsxImportSource hono/jsx */

/**
 * The "Include demo-trading accounts" checkbox of the report and gains forms: unticked (the
 * default) leaves demo (paper) accounts out of the tax-tool files and gains, as the CLI does
 * without `--include-demo`; ticked includes them, valued 0. Native CSVs keep them either way.
 *
 * @example
 * <DemoCheckbox id="report-include-demo" checked={false} />
 */
export function DemoCheckbox(props: { id: string; checked: boolean }) {
  return (
    <label class="inline demo-option" for={props.id} title="Demo (paper) trading uses virtual coins (SUSDT, SBTC, ...). Left out of tax files and gains unless ticked; ticked, its rows are valued 0. Native CSVs always keep them, with demo = true.">
      <input type="checkbox" id={props.id} name="include_demo" value="1" checked={props.checked} />
      {' '}Include demo-trading (paper) accounts <span class="muted">(valued 0; left out of tax files by default)</span>
    </label>
  );
}
