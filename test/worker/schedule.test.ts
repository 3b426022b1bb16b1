import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/cli/config/loadConfig.js';
import { TradeledgerError } from '../../src/errors.js';
import { nightlySchedule } from '../../src/worker/nightlySchedule.js';
import { syncJobSpec } from '../../src/worker/syncJobSpec.js';
import { tempFolder } from '../support/tempFolder.js';

const dir = tempFolder('tradeledger-schedule-');
const env = { K: 'bg_key', S: 'secret-value', P: 'Passphrase123' };
function configWith(schedule: unknown): string {
  const path = join(dir, `c${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify({ accounts: [{ name: 'main', uid: '1001', apiKeyEnv: 'K', secretEnv: 'S', passphraseEnv: 'P' }], schedule }));
  return path;
}

describe('the nightly schedule', () => {
  it('accepts a five-field cron pattern and keeps it in the frozen config', () => {
    const config = loadConfig({ config: configWith('15 3 * * *') }, env);
    expect(config.schedule).toBe('15 3 * * *');
    const [item] = nightlySchedule(config.schedule!);
    expect(item!.task).toBe('tradeledger_enqueue_all');
    // 03:15 UTC matches; 03:16 does not.
    const at = (h: number, m: number) => ({ min: m, hour: h, date: 24, month: 11, dow: 2 });
    expect(item!.match(at(3, 15))).toBe(true);
    expect(item!.match(at(3, 16))).toBe(false);
  });

  it.each([
    ['61 3 * * *'],
    ['15 3 * *'],
    ['every night'],
    ['15 3 * * * ?fill=1h'],
  ])('refuses %j with a config error naming the key and the fix', (pattern) => {
    let error: unknown;
    try {
      loadConfig({ config: configWith(pattern) }, env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TradeledgerError);
    const e = error as TradeledgerError;
    expect(e.kind).toBe('config');
    expect(e.message).toContain(': schedule: ');
    expect(e.message).toContain(JSON.stringify(pattern));
    expect(e.hint).toMatch(/15 3 \* \* \*/);
  });
});

describe('sync job spec', () => {
  it('names the queue after the account UID and keys the job by UID and stream selection', () => {
    const all = syncJobSpec({ account: 'a', uid: '42' });
    expect(all).toMatchObject({ queueName: 'tradeledger:account:42', jobKey: 'tradeledger:sync:42', maxAttempts: 8 });
    expect(syncJobSpec({ account: 'a', uid: '42', streams: ['transfers', 'deposits'] }).jobKey).toBe('tradeledger:sync:42:deposits,transfers');
  });
});
