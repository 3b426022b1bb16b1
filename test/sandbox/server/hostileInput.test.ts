import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointList } from '../../../src/api/endpoints.js';
import type { AccountLine } from '../../../src/sandbox/server/describeAccounts.js';
import { keyWhere, startTestSandbox, type RunningSandbox } from '../../support/sandbox.js';
import { call } from '../../support/signedClient.js';

let sandbox: RunningSandbox;
let main: AccountLine;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  main = keyWhere(sandbox, (a) => a.main && a.broker && a.perms.length === 4, 'full broker main key');
});
afterAll(() => sandbox.close());

const hostileQueries = [
  'idLessThan=99999999999999999999999', 'idLessThan=-1', 'limit=1e3', 'startTime=1&endTime=99999999999999999',
  'orderId=abc', 'clientOid=%E2%9C%93', 'productType=usdt-futures&symbol=btcusdt', 'subAccountUid=&planType=', 'marginType=%00',
];
const hostileBodies: unknown[] = [null, 42, 'text', [], [1, 2], { orderList: 'x' }, { orderList: [null, 5, 'x'] }, { symbol: ['BTCUSDT'] }, { subAccountUid: { $ne: 1 } }];

describe('hostile input gets a 4xx envelope, never a 500', () => {
  it.each(endpointList.filter((e) => e.method === 'GET').map((e) => [e.id, e.path] as const))('GET %s', async (_id, path) => {
    for (const rawQuery of hostileQueries) {
      const r = await call(sandbox.baseUrl, main, path, { rawQuery });
      expect(r.status, `${path}?${rawQuery}: ${r.text.slice(0, 200)}`).toBeLessThan(500);
      expect(r.json?.code, rawQuery).toBeTypeOf('string');
    }
  });

  it.each(endpointList.filter((e) => e.method === 'POST').map((e) => [e.id, e.path] as const))('POST %s', async (_id, path) => {
    for (const body of hostileBodies) {
      const r = await call(sandbox.baseUrl, main, path, { method: 'POST', body: JSON.stringify(body) });
      expect(r.status, `${path} ${JSON.stringify(body)}: ${r.text.slice(0, 200)}`).toBeLessThan(500);
      expect(r.json?.code).toBeTypeOf('string');
    }
  });
});
