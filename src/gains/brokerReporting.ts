import { readFileSync } from 'node:fs';
import { TradeledgerError } from '../errors.js';
import { configFileSchema } from '../cli/config/configFileSchema.js';

/** How a broker reported an account's sales for US Form 8949 (the config's `form1099DA`). */
export type BrokerReporting = 'basis-reported' | 'basis-not-reported' | 'none';

/**
 * The `form1099DA` setting of every account in a config file, keyed by the account's name and its
 * UID (sub-accounts too), for the Form 8949 box (docs/gains.md). Reads no secrets.
 *
 * @example
 * brokerReportingFromConfig('tradeledger.json'); // { main: 'basis-reported', '1234567': 'basis-reported' }
 */
export function brokerReportingFromConfig(file: string): Record<string, BrokerReporting> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new TradeledgerError('GAINS_BAD_FLAG', `cannot read the config file ${file}: ${err instanceof Error ? err.message : String(err)}`, {
      kind: 'config', hint: 'Point --config (or TRADELEDGER_CONFIG) at the JSON config file that lists the accounts.',
    });
  }
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new TradeledgerError('GAINS_BAD_FLAG', `${file}: ${issue.path.join('.')}: ${issue.message}`, {
      kind: 'config', hint: 'Fix the config file; form1099DA is one of "basis-reported", "basis-not-reported", "none".',
    });
  }
  const out: Record<string, BrokerReporting> = {};
  for (const a of parsed.data.accounts) {
    for (const x of [a, ...(a.subAccounts ?? [])]) {
      const how = x.form1099DA ?? a.form1099DA;
      if (how === undefined) continue;
      out[x.name] = how;
      if (x.uid !== undefined) out[x.uid] = how;
    }
  }
  return out;
}
