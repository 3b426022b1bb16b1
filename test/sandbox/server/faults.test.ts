import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { unknownFieldName } from '../../../src/sandbox/server/withUnknownField.js';
import { control, startTestSandbox, type RunningSandbox } from '../../support/sandbox.js';

const spec = '5xx=0.15,429=0.1,drop=0.05,malformed=0.05,slow=0.05:30,unknown-field=0.3';
const started: RunningSandbox[] = [];
afterAll(() => Promise.all(started.map((s) => s.close())));

async function sandboxWith(seed: number, faults = spec): Promise<RunningSandbox> {
  const s = await startTestSandbox({ seed, faults });
  started.push(s);
  return s;
}

type Outcome = 'ok' | 'unknown-field' | '5xx' | '429' | 'drop' | 'malformed';

/** Sends the same 150 distinct public requests in order and classifies each answer. */
async function outcomes(sandbox: RunningSandbox): Promise<Outcome[]> {
  const agent = new Agent({ connections: 1 });
  const out: Outcome[] = [];
  try {
    for (let i = 0; i < 150; i++) {
      try {
        const res = await request(`${sandbox.baseUrl}/api/v2/spot/public/symbols?n=${i}`, { dispatcher: agent });
        const text = await res.body.text();
        if (res.statusCode >= 500) out.push('5xx');
        else if (res.statusCode === 429) out.push('429');
        else {
          let data: { data: Record<string, unknown>[] } | undefined;
          try {
            data = JSON.parse(text) as { data: Record<string, unknown>[] };
          } catch {
            out.push('malformed');
            continue;
          }
          out.push(unknownFieldName in data.data[0]! ? 'unknown-field' : 'ok');
        }
      } catch {
        out.push('drop');
      }
    }
  } finally {
    await agent.close().catch(() => undefined);
  }
  return out;
}

describe('fault injection', () => {
  it('produces every stated kind, and the stats count them', async () => {
    const sandbox = await sandboxWith(1);
    const seen = await outcomes(sandbox);
    for (const kind of ['ok', 'unknown-field', '5xx', '429', 'drop', 'malformed'] as const) expect(seen, kind).toContain(kind);
    const stats = (await (await fetch(`${sandbox.baseUrl}/_sandbox/stats`)).json()) as { faults: Record<string, number> };
    expect(stats.faults['5xx']).toBe(seen.filter((o) => o === '5xx').length);
    expect(stats.faults.drop).toBe(seen.filter((o) => o === 'drop').length);
    expect(stats.faults.slow).toBeGreaterThan(0);
  });

  it('is deterministic for a seed, and a different seed gives different faults', async () => {
    const [a, b, c] = await Promise.all([sandboxWith(5), sandboxWith(5), sandboxWith(6)]);
    const [ra, rb, rc] = [await outcomes(a), await outcomes(b), await outcomes(c)];
    expect(ra).toEqual(rb);
    expect(ra).not.toEqual(rc);
  });

  it('never touches /_sandbox routes, and can be turned off at runtime', async () => {
    const sandbox = await sandboxWith(2, '5xx=1');
    for (let i = 0; i < 20; i++) expect((await fetch(`${sandbox.baseUrl}/_sandbox/stats`)).status).toBe(200);
    expect((await request(`${sandbox.baseUrl}/api/v2/spot/public/coins`)).statusCode).toBeGreaterThanOrEqual(500);
    await control(sandbox, 'faults', { spec: '' });
    const res = await request(`${sandbox.baseUrl}/api/v2/spot/public/coins`);
    expect(res.statusCode).toBe(200);
    await res.body.text();
  });

  it('refuses a bad runtime spec with the syntax', async () => {
    const sandbox = await sandboxWith(3, '');
    const res = await fetch(`${sandbox.baseUrl}/_sandbox/faults`, { method: 'POST', body: JSON.stringify({ spec: 'explode=1' }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/unknown fault kind "explode"/);
  });
});
