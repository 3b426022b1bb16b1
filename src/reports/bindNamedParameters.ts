import { TradeledgerError } from '../errors.js';

/** A query ready for pg: `$n` placeholders and their values. */
export interface BoundQuery {
  text: string;
  values: string[];
}

// psql's quoted-variable form, so the same file runs in psql with `-v name=value`.
const placeholder = /:'([A-Za-z_][A-Za-z0-9_]*)'/g;

/**
 * Turns a report query written for psql (`:'from'`, `:'account'`, ...) into a pg query with
 * positional parameters. Every value is bound as text (never spliced into the SQL); whole-line
 * `--` comments are dropped first, so a header comment may mention parameters freely.
 *
 * @example
 * bindNamedParameters("SELECT * FROM ledger WHERE account_uid = :'account'", { account: '42' });
 * // { text: 'SELECT * FROM ledger WHERE account_uid = $1::text', values: ['42'] }
 */
export function bindNamedParameters(sql: string, params: Readonly<Record<string, string>>): BoundQuery {
  const body = sql.split('\n').filter((line) => !line.trimStart().startsWith('--')).join('\n');
  const positions = new Map<string, number>();
  const values: string[] = [];
  const text = body.replace(placeholder, (_match, name: string) => {
    let position = positions.get(name);
    if (position === undefined) {
      const value = params[name];
      if (value === undefined) {
        throw new TradeledgerError('REPORT_PARAMETER_MISSING', `the report query needs a parameter named "${name}"`, {
          kind: 'internal', hint: `Pass { ${name}: '...' } to the runner, or remove :'${name}' from the query.`,
        });
      }
      values.push(value);
      position = values.length;
      positions.set(name, position);
    }
    return `$${position}::text`;
  });
  return { text: text.trim().replace(/;\s*$/, ''), values };
}
