/**
 * Measures how close the client runs to the spec rate and whether the sandbox ever answers 429:
 * 100 concurrent requests to E19 (20/s), evenly spaced (burst 1, the default) and with a burst of
 * one second's worth, and 12 to E5 (1/s), per safety factor. Run by hand:
 *   npx tsx test/bench/rateBudget.bench.ts
 */
import { ExchangeClient } from '../../src/api/exchangeClient.js';
import { RateBudgets } from '../../src/api/rateBudgets.js';
import { startSandbox } from '../../src/sandbox/startSandbox.js';

const rows: Record<string, string>[] = [];
for (const safetyFactor of [0.9, 0.95, 1]) {
  for (const [endpoint, id, n, params, burst] of [
    ['transfers', 'E19', 100, {}, 1],
    ['transfers', 'E19', 100, {}, 20],
    ['marginRecords', 'E5', 12, { marginType: 'crossed', startTime: String(Date.now() - 10 * 86_400_000), endTime: String(Date.now()) }, 1],
  ] as const) {
    const sandbox = await startSandbox({ seed: 3, scale: 'tiny', rateLimit: true });
    const a = sandbox.accounts.find((x) => x.name === 'main') ?? sandbox.accounts[0];
    if (a === undefined) throw new Error('no account');
    const client = new ExchangeClient({
      baseUrl: sandbox.baseUrl, budgetKey: a.uid, budgets: new RateBudgets(), safetyFactor, burst,
      credentials: { apiKey: a.apiKey, secretKey: a.secretKey, passphrase: a.passphrase, demo: a.demo },
    });
    const t0 = performance.now();
    await Promise.all(Array.from({ length: n }, () => client.request(endpoint, params)));
    const s = (performance.now() - t0) / 1000;
    const spec = id === 'E19' ? 20 : 1;
    // The fastest any client can go: one second's worth at once, then the spec rate.
    const minimum = Math.max(1, n - spec) / spec;
    // The fastest an evenly spaced client can go: n - 1 intervals at the spec rate.
    const spaced = (n - 1) / spec;
    rows.push({
      safetyFactor: String(safetyFactor), endpoint: id, burst: String(burst), requests: String(n), seconds: s.toFixed(2),
      'x minimum': (s / minimum).toFixed(3), 'x spaced minimum': (s / spaced).toFixed(3), '429s': String(sandbox.stats.total429),
    });
    await client.close();
    await sandbox.close();
  }
}
console.table(rows);
