import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TruthRecord } from '../../../src/sandbox/world.js';
import type { AccountLine } from '../../../src/sandbox/server/describeAccounts.js';
import { control, keyWhere, startTestSandbox, type RunningSandbox } from '../../support/sandbox.js';
import { call } from '../../support/signedClient.js';

const DAY = 86_400_000;
let sandbox: RunningSandbox;
let main: AccountLine;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  main = keyWhere(sandbox, (a) => a.main && a.broker && a.perms.length === 4, 'full broker main key');
});
afterAll(() => sandbox.close());

const truth = async (query = ''): Promise<TruthRecord[]> =>
  (await (await fetch(`${sandbox.baseUrl}/_sandbox/truth${query}`)).text()).trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as TruthRecord);

describe('/_sandbox test controls', () => {
  it('GET truth filters by uid and resource', async () => {
    const deposits = await truth(`?uid=${main.uid}&resource=deposits`);
    expect(deposits.length).toBeGreaterThan(0);
    expect(deposits.every((t) => t.uid === main.uid && t.resource === 'deposits')).toBe(true);
    expect((await truth()).length).toBeGreaterThan(deposits.length);
  });

  it('POST settle moves a pending deposit to success, as E20 then shows', async () => {
    const pending = (await truth(`?uid=${main.uid}&resource=deposits`)).find((t) => (t.record as { status: string }).status === 'pending');
    expect(pending, 'the tiny world should hold a pending deposit').toBeDefined();
    expect(await control(sandbox, 'settle', { uid: main.uid, resource: 'deposits', id: pending!.id })).toEqual({ settled: true });
    const r = await call(sandbox.baseUrl, main, '/api/v2/spot/wallet/deposit-records', { query: { orderId: pending!.id } });
    expect(r.json!.data[0].status).toBe('success');
  });

  it('POST advance moves the server clock: new records appear and clients must follow the clock', async () => {
    const before = (await truth()).length;
    const { now } = await control(sandbox, 'advance', { ms: 30 * DAY });
    expect(now - Date.now()).toBeGreaterThan(30 * DAY - 60_000);
    expect((await truth()).length).toBeGreaterThan(before);
    const stale = await call(sandbox.baseUrl, main, '/api/v2/spot/wallet/deposit-records');
    expect(stale.json?.code).toBe('40008');
    const synced = await call(sandbox.baseUrl, main, '/api/v2/spot/wallet/deposit-records', { timestamp: String(Date.now() + 30 * DAY) });
    expect(synced.json?.code).toBe('00000');
  });

  it('GET accounts repeats the startup account list; GET stats counts requests', async () => {
    const accounts = (await (await fetch(`${sandbox.baseUrl}/_sandbox/accounts`)).json()) as AccountLine[];
    expect(accounts).toEqual(sandbox.accounts);
    const stats = (await (await fetch(`${sandbox.baseUrl}/_sandbox/stats`)).json()) as { total: number; requests: Record<string, Record<string, number>> };
    expect(stats.requests.E20?.[main.uid]).toBe(2);
  });

  it.each([
    ['advance', { ms: -5 }, /advance needs/],
    ['settle', { uid: 1 }, /settle needs/],
    ['clock', { skewMs: 'soon' }, /clock needs/],
    ['nothing', {}, /no test control/],
  ])('POST %s with a bad body gets a 4xx naming the expected input', async (name, body, message) => {
    const res = await fetch(`${sandbox.baseUrl}/_sandbox/${name}`, { method: 'POST', body: JSON.stringify(body) });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(((await res.json()) as { error: string }).error).toMatch(message);
  });
});
