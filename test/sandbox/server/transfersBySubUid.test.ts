import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TruthRecord } from '../../../src/sandbox/world.js';
import type { TransferRecord } from '../../../src/api/records/wallet.js';
import type { AccountLine } from '../../../src/sandbox/server/describeAccounts.js';
import { keyWhere, startTestSandbox, type RunningSandbox } from '../../support/sandbox.js';
import { call } from '../../support/signedClient.js';

// Spec E19: "Only records where the caller is the initiator are returned"; subUid: "when empty
// only records transferred from the main account are queried". A main account's transfers out
// of a sub-account are therefore listed only when asked with that subUid (issue 20 item 3).

const DAY = 86_400_000;
const path = '/api/v2/spot/account/sub-main-trans-record';
let sandbox: RunningSandbox;
let main: AccountLine;
let mainTransfers: TransferRecord[];

beforeAll(async () => {
  sandbox = await startTestSandbox({ scale: 'tiny' });
  main = keyWhere(sandbox, (a) => a.main && a.broker && a.perms.includes('read'), 'broker main key');
  const text = await (await fetch(`${sandbox.baseUrl}/_sandbox/truth?uid=${main.uid}&resource=transfers`)).text();
  mainTransfers = text.trim().split('\n').map((l) => (JSON.parse(l) as TruthRecord).record as TransferRecord);
});
afterAll(() => sandbox.close());

/** Every transfer E19 lists to the main account over the whole history, with `query` added. */
async function listed(query: Record<string, string>): Promise<TransferRecord[]> {
  const times = mainTransfers.map((t) => Number(t.ts));
  const start = Math.min(...times);
  const end = Math.max(...times) + 1;
  const out: TransferRecord[] = [];
  for (let w = start; w < end; w += 90 * DAY) {
    let cursor: string | undefined;
    for (;;) {
      const q = { ...query, startTime: String(w), endTime: String(Math.min(w + 90 * DAY, end)), limit: '100', ...(cursor ? { idLessThan: cursor } : {}) };
      const r = await call(sandbox.baseUrl, main, path, { query: q });
      expect(r.json?.code, r.text.slice(0, 200)).toBe('00000');
      const page = r.json!.data as TransferRecord[];
      out.push(...page);
      if (page.length < 100) break;
      cursor = page.at(-1)!.transferId;
    }
  }
  return out;
}

describe('E19 main/sub transfer records, as the spec says', () => {
  it('lists without subUid only the transfers made from the main account, and a transfer out of a sub only with that subUid', async () => {
    const subs = sandbox.world.accounts.find((a) => a.uid === main.uid)!.subUids;
    const outOfSubs = mainTransfers.filter((t) => t.fromUserId !== main.uid);
    // The sandbox holds main-initiated transfers out of its sub-accounts.
    expect(outOfSubs.length).toBeGreaterThan(0);
    expect(outOfSubs.every((t) => subs.includes(t.fromUserId) && t.toUserId === main.uid)).toBe(true);

    const own = await listed({});
    expect(own.map((t) => t.transferId).sort()).toEqual(mainTransfers.filter((t) => t.fromUserId === main.uid).map((t) => t.transferId).sort());
    expect(own.some((t) => t.fromUserId !== main.uid)).toBe(false);

    const seen: string[] = [];
    for (const sub of subs) {
      const bySub = await listed({ subUid: sub });
      expect(bySub.every((t) => t.fromUserId === sub)).toBe(true);
      expect(bySub.map((t) => t.transferId).sort()).toEqual(outOfSubs.filter((t) => t.fromUserId === sub).map((t) => t.transferId).sort());
      seen.push(...bySub.map((t) => t.transferId));
    }
    // Together: every transfer the main account initiated, each once.
    expect([...own.map((t) => t.transferId), ...seen].sort()).toEqual(mainTransfers.map((t) => t.transferId).sort());
  });
});
