/**
 * What each exchange error means in plain words and what the user should do about it. The
 * environment variable names are those of the one-account setup (README); config-file accounts
 * name their own variables, so the advice says "or the account's config entry".
 */
export interface Advice {
  readonly what: string;
  readonly fix: string;
}

const keyVars = 'TRADELEDGER_API_KEY (or the account\'s apiKey setting)';
const secretVar = 'TRADELEDGER_API_SECRET (or the account\'s secret setting)';
const passVar = 'TRADELEDGER_API_PASSPHRASE (or the account\'s passphrase setting)';
const clockFix = 'sync the system clock (NTP, e.g. `timedatectl set-ntp true`) and run again';

const table: Record<string, Advice> = {
  '40001': { what: 'the request carried no API key', fix: `set ${keyVars}` },
  '40002': { what: 'the request carried no signature', fix: `set ${secretVar}` },
  '40003': { what: 'the request carried no signature', fix: `set ${secretVar}` },
  '40011': { what: 'the request carried no passphrase', fix: `set ${passVar}` },
  '40005': { what: 'the exchange refused the request timestamp', fix: clockFix },
  '40008': { what: 'the request timestamp is too far from the exchange\'s clock', fix: clockFix },
  '40006': { what: 'the API key is not valid', fix: `check ${keyVars}` },
  '40037': { what: 'the API key does not exist', fix: `check ${keyVars}; the key may have been deleted` },
  '40009': { what: 'the signature was refused, so the API secret is wrong', fix: `check ${secretVar}` },
  '40012': { what: 'the API key or passphrase is wrong', fix: `check ${passVar} and ${keyVars}` },
  '40014': { what: 'the API key lacks a permission this request needs', fix: 'create a key with the read permission (and the trade permission for write commands)' },
  '40018': { what: 'the exchange refused this IP address', fix: 'add this machine\'s IP to the API key\'s whitelist' },
  '40038': { what: 'this IP address is not on the API key\'s whitelist', fix: 'add this machine\'s IP to the API key\'s whitelist' },
  '40099': { what: 'a demo key was used without the demo flag, or a live key with it', fix: 'set TRADELEDGER_DEMO=1 for a demo key (or "demo": true on the account), and unset it for a live key' },
  '40017': { what: 'the exchange refused a parameter', fix: 'check the command\'s flags; if they are right this is a bug, please report it' },
  '40019': { what: 'a required parameter was missing', fix: 'check the command\'s flags; if they are right this is a bug, please report it' },
  '40034': { what: 'a parameter was not recognised', fix: 'check the command\'s flags; if they are right this is a bug, please report it' },
  '40704': { what: 'this endpoint only serves the last three months', fix: 'older data comes from the exchange\'s web export or the tax endpoints' },
  '40705': { what: 'the time window was longer than the endpoint allows', fix: 'this is a bug in the window planner, please report it' },
  '00001': { what: 'the time window was longer than the endpoint allows', fix: 'lower the stream\'s window span in the config' },
  '40078': { what: 'the request arrived outside its receive window', fix: clockFix },
  '40079': { what: 'the receive window was too long', fix: 'use a receiveWindow below 60000 ms' },
  '429': { what: 'the exchange rate-limited the request', fix: 'wait a few minutes; if it persists, lower safetyFactor or run fewer accounts at once' },
  '45001': { what: 'the exchange had an internal error (often its weekly deploy window)', fix: 'run again later; the sync resumes where it stopped' },
  '40725': { what: 'the exchange had an internal error (often its weekly deploy window)', fix: 'run again later; the sync resumes where it stopped' },
  '40808': { what: 'the exchange had an internal error (often its weekly deploy window)', fix: 'run again later; the sync resumes where it stopped' },
  '40015': { what: 'the exchange reported a system error (often its weekly deploy window)', fix: 'run again later; the sync resumes where it stopped' },
};

/**
 * Advice for an exchange error code; a generic one for codes we do not know.
 *
 * @example
 * adviceFor('40012').fix // 'check TRADELEDGER_API_PASSPHRASE ...'
 */
export function adviceFor(code: string): Advice {
  return table[code] ?? { what: 'the exchange refused the request', fix: 'read the exchange\'s message above; if it persists, report it' };
}
