import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { runCli } from '../support/runCli.js';

// A corrected price in "XYZ" (or a coin) was stored, and the row it priced stayed unpriced in
// every report without a word: no ECB rate exists for it. The currency must be ISO 4217.
describe('classify set --price-currency', () => {
  let fresh: FreshDatabase;
  beforeAll(async () => { fresh = await freshDatabase(); });
  afterAll(async () => { await fresh?.drop(); });

  const set = (currency: string) => runCli(['classify', 'set', '--user', 'anna', '--account', '1000000001', '--row', 'withdrawals:42',
    '--price', '61234.50', '--price-currency', currency, '--price-source', 'an invoice', '--why', 'the exchange had no price'], { DATABASE_URL: fresh.url });

  it('refuses a code that is no currency, exit 2, storing nothing', async () => {
    for (const currency of ['XYZ', 'btc']) {
      const r = await set(currency);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`--price-currency ${currency} is not an ISO 4217 currency code`);
    }
    const count = await fresh.db.selectFrom('ledger_corrections').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(count.n).toBe('0');
  });

  it('takes an ISO code in any case as far as the row lookup (no such user here)', async () => {
    const r = await set('gbp');
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('ISO 4217');
    expect(r.stderr).toMatch(/anna/);
  });
});
