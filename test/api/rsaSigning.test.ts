import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/apiError.js';
import { preHash, secretProblem, sign } from '../../src/api/sign.js';
import { loadConfig } from '../../src/cli/config/loadConfig.js';
import { TradeledgerError } from '../../src/errors.js';
import { ApiSandbox } from '../support/sandbox.js';
import { freshDatabase } from '../support/database.js';
import { runSync } from '../../src/extract/runSync.js';
import { hiddenCredentials } from '../../src/cli/config/hiddenCredentials.js';
import { testSyncOptions } from '../support/testSync.js';
import { diffAgainstTruth } from '../support/groundTruth.js';

let sb: ApiSandbox;
beforeAll(async () => {
  sb = await ApiSandbox.start();
});
afterAll(async () => {
  await sb?.close();
});

const isRsa = (a: { secretKey: string }) => a.secretKey.startsWith('-----BEGIN');

describe('RSA API keys (SHA256withRSA, api-notes.md)', () => {
  it('sign the pre-hash string so that the key\'s public half verifies it', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const message = preHash('1700000000000', 'GET', '/api/v2/spot/wallet/deposit-records', 'coin=USDT&limit=100', '');
    const signature = sign(privateKey, message);
    expect(signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(verify('sha256', Buffer.from(message), createPublicKey(privateKey), Buffer.from(signature, 'base64'))).toBe(true);
    expect(verify('sha256', Buffer.from(`${message}x`), createPublicKey(privateKey), Buffer.from(signature, 'base64'))).toBe(false);
    expect(secretProblem(privateKey)).toBeUndefined();
    expect(secretProblem('0123456789abcdef')).toBeUndefined();
  });

  it('are accepted by the sandbox over HTTP, and a different private key is a clear auth error', async () => {
    const rsa = sb.account((a) => a.name === 'main' && isRsa(a));
    const deposits = await sb.client(rsa).request<unknown[]>('deposits', { limit: '100' });
    expect(deposits.length).toBeGreaterThan(0);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey;
    const e = await sb.client({ ...rsa, secretKey: other }).request('deposits').then(() => undefined, (err: unknown) => err);
    sb.errors.push(e);
    expect(e).toBeInstanceOf(ApiError);
    expect([(e as ApiError).exchangeCode, (e as ApiError).kind, (e as ApiError).retryable]).toEqual(['40009', 'auth', false]);
    // No key material in any event or error.
    expect(sb.everythingPrinted()).not.toContain('PRIVATE KEY');
  });

  it('refuse an unreadable PEM secret at config time, naming where it came from and never quoting it', () => {
    const pem = '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5IGF0IGFsbA==\n-----END PRIVATE KEY-----\n';
    let error: unknown;
    try {
      loadConfig({}, { TRADELEDGER_API_KEY: 'k', TRADELEDGER_API_SECRET: pem, TRADELEDGER_API_PASSPHRASE: 'Passw0rd99' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TradeledgerError);
    const t = error as TradeledgerError;
    expect(t.kind).toBe('config');
    expect(t.message).toContain('TRADELEDGER_API_SECRET');
    expect(t.message).toMatch(/PEM private key cannot be read/);
    expect(t.hint).toMatch(/BEGIN PRIVATE KEY/);
    expect(`${t.message} ${t.hint}`).not.toContain('bm90IGEga2V5IGF0IGFsbA');
    const { privateKey: ec } = generateKeyPairSync('ec', { namedCurve: 'P-256', privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    expect(secretProblem(ec)).toMatch(/ec key; the exchange signs with RSA/);
  });

  it('sync an account end to end', async () => {
    const rsa = sb.sandbox.accounts.find((a) => a.name === 'main' && isRsa(a))!;
    const fresh = await freshDatabase();
    try {
      const account = { uid: rsa.uid, name: 'main', kind: 'main' as const, parentName: undefined, credentials: hiddenCredentials({ apiKey: rsa.apiKey, secretKey: rsa.secretKey, passphrase: rsa.passphrase }) };
      const result = await runSync(testSyncOptions(sb.sandbox, fresh.db, [], { accounts: [account], sync: { streams: ['deposits', 'spotFills'] } }));
      expect([result.status, result.errors]).toEqual(['ok', []]);
      const { differences, compared } = await diffAgainstTruth(sb.sandbox, fresh.db, [rsa.uid]);
      expect(compared).toBeGreaterThan(0);
      expect(differences.filter((d) => d.startsWith('deposits') || d.startsWith('spotFills'))).toEqual([]);
    } finally {
      await fresh.drop();
    }
  });
});
