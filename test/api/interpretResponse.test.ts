import { describe, expect, it } from 'vitest';
import { ApiError, classifyExchangeCode } from '../../src/api/apiError.js';
import { endpoints } from '../../src/api/endpoints.js';
import { interpretResponse, toApiError } from '../../src/api/interpretResponse.js';

const secret = 'S3cr3t-Value-For-Tests';
const passphrase = 'PassPhrase1234';
const interpret = (status: number, text: string, headers: Record<string, string> = {}) =>
  interpretResponse('marginRecords', endpoints.marginRecords, { status, text, headers }, [secret, passphrase]);
const envelope = (code: string, msg: string, data: unknown = null) => JSON.stringify({ code, msg, requestTime: 1700000000000, data });

describe('interpretResponse', () => {
  it('accepts code 00000 with msg success only', () => {
    const ok = interpret(200, envelope('00000', 'success', [{ id: '1' }]));
    expect(ok).toEqual({ ok: true, envelope: { code: '00000', msg: 'success', requestTime: 1700000000000, data: [{ id: '1' }] }, status: 200 });
    const odd = interpret(200, envelope('00000', 'partial'));
    expect(odd.ok).toBe(false);
    if (!odd.ok) expect(odd.failure.code).toBe('API_NOT_SUCCESS');
  });

  it('classifies a wrong passphrase as a non-retryable auth error that says what to check', () => {
    const o = interpret(400, envelope('40012', 'apikey/password is incorrect'));
    if (o.ok) throw new Error('expected a failure');
    const e = toApiError(o.failure, 'marginRecords', 'E5', 1);
    expect(e).toBeInstanceOf(ApiError);
    expect(e.kind).toBe('auth');
    expect(e.retryable).toBe(false);
    expect(e.exchangeCode).toBe('40012');
    expect(e.httpStatus).toBe(400);
    expect(e.code).toBe('API_40012');
    expect(e.message).toMatch(/API key or passphrase is wrong/);
    expect(e.message).toMatch(/TRADELEDGER_API_PASSPHRASE/);
  });

  it('marks deploy-window codes, 5xx pages, 429 and malformed bodies retryable', () => {
    for (const code of ['45001', '40725', '40808', '40015']) {
      const o = interpret(400, envelope(code, 'x'));
      expect(o.ok ? null : [o.failure.retryable, o.failure.kind]).toEqual([true, 'exchange']);
    }
    const page = interpret(502, '<html>Bad Gateway</html>');
    expect(page.ok ? null : [page.failure.code, page.failure.retryable]).toEqual(['API_HTTP_502', true]);
    const cut = interpret(200, '{"code":"00000","msg":"success","data":[{"id":');
    expect(cut.ok ? null : [cut.failure.code, cut.failure.retryable, cut.failure.kind]).toEqual(['API_MALFORMED_BODY', true, 'network']);
    const limited = interpret(429, envelope('429', 'Too Many Requests'), { 'retry-after': '2' });
    expect(limited.ok ? null : [limited.failure.exchangeCode, limited.failure.retryable, limited.failure.retryAfterMs]).toEqual(['429', true, 2000]);
  });

  it('counts the 40001-40012 block and the key, IP and environment codes as auth, nothing else', () => {
    const kinds = ['40001', '40010', '40012', '40014', '40018', '40037', '40038', '40099', '40013', '40017', '40704', '00001']
      .map((code) => classifyExchangeCode(code, 400).kind);
    expect(kinds).toEqual(['auth', 'auth', 'auth', 'auth', 'auth', 'auth', 'auth', 'auth', 'exchange', 'exchange', 'exchange', 'exchange']);
    expect(classifyExchangeCode('49999', 503).retryable).toBe(true);
    expect(classifyExchangeCode('49999', 400).retryable).toBe(false);
  });

  it('does not retry parameter errors and names the problem', () => {
    const o = interpret(400, envelope('00001', 'startTime and endTime interval cannot be greater than 30 days'));
    if (o.ok) throw new Error('expected a failure');
    expect(o.failure.retryable).toBe(false);
    expect(o.failure.kind).toBe('exchange');
    expect(o.failure.message).toMatch(/time window was longer/);
  });

  it('redacts secrets a server echoes back in msg', () => {
    const o = interpret(400, envelope('40009', `sign signature error for ${secret} / ${passphrase}`));
    if (o.ok) throw new Error('expected a failure');
    const e = toApiError(o.failure, 'marginRecords', 'E5', 3);
    const everything = JSON.stringify({ m: e.message, j: e.toJSON(), h: e.hint, s: e.stack });
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(passphrase);
    expect(e.message).toMatch(/\[REDACTED\]/);
    expect(e.message).toMatch(/gave up after 3 attempts/);
  });
});
