import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/apiError.js';
import { ApiSandbox } from '../support/sandbox.js';

const skewMs = 120_000;
let sb: ApiSandbox;
beforeAll(async () => {
  sb = await ApiSandbox.start();
});
afterEach(async () => {
  await sb.control('clock', { skewMs: 0 });
});
afterAll(async () => {
  await sb?.close();
});

describe('ExchangeClient clock', () => {
  it('reports a skewed clock as a typed auth error when retries are off', async () => {
    await sb.control('clock', { skewMs });
    const e = await sb.client(sb.account()).request('deposits', {}, undefined, { retry: false }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ApiError);
    const err = e as ApiError;
    expect([err.exchangeCode, err.kind, err.retryable]).toEqual(['40008', 'auth', false]);
    expect(err.message).toMatch(/clock/);
  });

  it('measures the offset to the server, and signed requests then pass', async () => {
    await sb.control('clock', { skewMs });
    const client = sb.client(sb.account());
    const offset = await client.syncClock();
    expect(Math.abs(offset - skewMs)).toBeLessThan(5_000);
    expect(Math.abs(client.serverNow() - (Date.now() + skewMs))).toBeLessThan(5_000);
    const before = sb.events.length;
    await client.request('deposits', {}, undefined, { retry: false });
    expect(sb.events.slice(before).filter((e) => e.type === 'retry')).toEqual([]);
  });

  it('recovers from a 40008 by re-measuring once and retrying once', async () => {
    await sb.control('clock', { skewMs: -skewMs });
    const client = sb.client(sb.account());
    const before = sb.events.length;
    const data = await client.request<unknown[]>('deposits');
    expect(Array.isArray(data)).toBe(true);
    expect(Math.abs(client.clockOffsetMs + skewMs)).toBeLessThan(5_000);
    const mine = sb.events.slice(before).filter((e) => e.endpoint === 'deposits');
    expect(mine.filter((e) => e.type === 'retry').map((e) => e.exchangeCode)).toEqual(['40008']);
  });

  it('retries a 40008 only once when the clock keeps moving', async () => {
    const client = sb.client(sb.account());
    await sb.control('clock', { skewMs });
    await client.syncClock();
    // The server clock jumps again after we measured; a re-measure fixes it once, not twice.
    await sb.control('clock', { skewMs: -skewMs });
    await expect(client.request('deposits')).resolves.toBeDefined();
    await sb.control('clock', { skewMs });
    const e = await client.request('deposits', {}, undefined, { retry: false }).catch((err: unknown) => err);
    expect((e as ApiError).exchangeCode).toBe('40008');
  });
});
