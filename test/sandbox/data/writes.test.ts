import { describe, expect, it } from 'vitest';
import { WorldError, type World } from '../../../src/sandbox/world.js';
import { tinyWorld } from './tinyWorld.js';

const limit = (o: Record<string, string>) => ({ orderType: 'limit', force: 'gtc', ...o });

function errorOf(fn: () => unknown): WorldError {
  try {
    fn();
  } catch (e) {
    if (e instanceof WorldError) return e;
    throw e;
  }
  throw new Error('expected a WorldError');
}

function setup(): { w: World; uid: string } {
  const w = tinyWorld(11);
  return { w, uid: w.accounts[0]!.uid };
}

describe('E1 spot orders', () => {
  it('places a limit order that appears live in the spot history at now()', () => {
    const { w, uid } = setup();
    const r = w.placeSpotOrder(uid, limit({ symbol: 'BTCUSDT', side: 'buy', price: '50000', size: '0.01', clientOid: 'mine-1' }));
    const s = w.series(uid, 'spotOrders', 'all');
    const o = s.get(r.orderId)!;
    expect(o).toMatchObject({ status: 'live', clientOid: 'mine-1', price: '50000', size: '0.01', feeDetail: '', cTime: String(w.now()) });
    expect(s.query({ limit: 1 })[0]!.orderId).toBe(r.orderId);
  });

  it('fills a market order at once, with a newFees feeDetail and a spot fill', () => {
    const { w, uid } = setup();
    const r = w.placeSpotOrder(uid, { symbol: '$WIFUSDT', side: 'sell', orderType: 'market', size: '10' });
    const o = w.series(uid, 'spotOrders', 'all').get(r.orderId)!;
    expect(o.status).toBe('filled');
    expect(o.feeDetail).toContain('"newFees"');
    const fill = w.series(uid, 'spotFills', 'all').query({ limit: 1 })[0]!;
    expect(fill).toMatchObject({ orderId: r.orderId, size: '10', side: 'sell' });
  });

  it('rejects bad input with the exchange codes', () => {
    const { w, uid } = setup();
    expect(errorOf(() => w.placeSpotOrder(uid, limit({ side: 'buy', price: '1', size: '1' }))).code).toBe('40019');
    expect(errorOf(() => w.placeSpotOrder(uid, limit({ symbol: 'NOPEUSDT', side: 'buy', price: '1', size: '1' }))).code).toBe('40034');
    expect(errorOf(() => w.placeSpotOrder(uid, limit({ symbol: 'BTCUSDT', side: 'up', price: '1', size: '1' }))).code).toBe('40017');
    expect(errorOf(() => w.placeSpotOrder(uid, { symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', price: '1', size: '1' })).message).toContain('force');
    expect(errorOf(() => w.placeSpotOrder(uid, limit({ symbol: 'BTCUSDT', side: 'buy', price: '1', size: '-1' }))).code).toBe('40017');
    expect(errorOf(() => w.placeSpotOrder(uid, limit({ symbol: 'BTCUSDT', side: 'buy', size: '1' }))).message).toBe('Parameter price cannot be empty');
    // force is not needed (and ignored) for a market order.
    expect(w.placeSpotOrder(uid, { symbol: 'BTCUSDT', side: 'buy', orderType: 'market', size: '10', force: 'fok' }).orderId).toMatch(/^\d+$/);
  });

  it('is idempotent on clientOid for an unfilled order within 6 hours, and refuses a filled one', () => {
    const { w, uid } = setup();
    const first = w.placeSpotOrder(uid, limit({ symbol: 'ETHUSDT', side: 'sell', price: '9000', size: '1', clientOid: 'same' }));
    const again = w.placeSpotOrder(uid, limit({ symbol: 'ETHUSDT', side: 'sell', price: '9000', size: '1', clientOid: 'same' }));
    expect(again).toEqual(first);
    expect(w.series(uid, 'spotOrders', 'all').query({ limit: 2 }).filter((o) => o.clientOid === 'same')).toHaveLength(1);
    w.advance(7 * 3_600_000);
    const late = errorOf(() => w.placeSpotOrder(uid, limit({ symbol: 'ETHUSDT', side: 'sell', price: '9000', size: '1', clientOid: 'same' })));
    expect(late.code).toBe('40017');
    w.placeSpotOrder(uid, { symbol: 'ETHUSDT', side: 'buy', orderType: 'market', size: '10', clientOid: 'filled-one' });
    expect(errorOf(() => w.placeSpotOrder(uid, { symbol: 'ETHUSDT', side: 'buy', orderType: 'market', size: '10', clientOid: 'filled-one' })).message).toContain('duplicate');
  });

  it('self-trade prevention cancels the taker, the maker or both with stp_cancel', () => {
    const { w, uid } = setup();
    const s = w.series(uid, 'spotOrders', 'all');
    const maker = () => w.placeSpotOrder(uid, limit({ symbol: 'SOLUSDT', side: 'sell', price: '100', size: '1' })).orderId;
    const taker = (stpMode: string) => w.placeSpotOrder(uid, limit({ symbol: 'SOLUSDT', side: 'buy', price: '101', size: '1', stpMode })).orderId;

    const m1 = maker();
    const t1 = taker('cancel_taker');
    expect(s.get(t1)).toMatchObject({ status: 'cancelled', cancelReason: 'stp_cancel' });
    expect(s.get(m1)!.status).toBe('live');

    const t2 = taker('cancel_maker');
    expect(s.get(m1)).toMatchObject({ status: 'cancelled', cancelReason: 'stp_cancel' });
    expect(s.get(t2)!.status).toBe('live');

    const m3 = maker();
    // The resting buy t2 at 101 crosses the new sell at 100 too; cancel_both clears both sides.
    const t3 = taker('cancel_both');
    expect(s.get(m3)).toMatchObject({ status: 'cancelled', cancelReason: 'stp_cancel' });
    expect(s.get(t3)).toMatchObject({ status: 'cancelled', cancelReason: 'stp_cancel' });

    const m4 = maker();
    const t4 = taker('none');
    expect([s.get(m4)!.status, s.get(t4)!.status]).toEqual(['live', 'live']);
  });
});

describe('E4 cancel-replace', () => {
  it('cancels the order named by orderId or clientOid and places the new one', () => {
    const { w, uid } = setup();
    const s = w.series(uid, 'spotOrders', 'all');
    const old = w.placeSpotOrder(uid, limit({ symbol: 'BTCUSDT', side: 'buy', price: '40000', size: '0.1', clientOid: 'old-1' }));
    const r = w.cancelReplace(uid, { symbol: 'BTCUSDT', price: '41000', size: '0.2', clientOid: 'old-1', newClientOid: 'new-1' });
    expect(r).toMatchObject({ success: 'success', clientOid: 'new-1', msg: '' });
    expect(s.get(old.orderId)).toMatchObject({ status: 'cancelled', cancelReason: 'normal_cancel' });
    expect(s.get(r.orderId)).toMatchObject({ status: 'live', price: '41000', size: '0.2', side: 'buy' });
    const byId = w.cancelReplace(uid, { symbol: 'BTCUSDT', price: '42000', size: '0.2', orderId: r.orderId });
    expect(byId.success).toBe('success');
    expect(s.get(r.orderId)!.status).toBe('cancelled');
  });

  it('a duplicate newClientOid cancels the old order and fails the new one', () => {
    const { w, uid } = setup();
    const s = w.series(uid, 'spotOrders', 'all');
    w.placeSpotOrder(uid, limit({ symbol: 'BTCUSDT', side: 'buy', price: '40000', size: '0.1', clientOid: 'taken' }));
    const old = w.placeSpotOrder(uid, limit({ symbol: 'BTCUSDT', side: 'buy', price: '39000', size: '0.1', clientOid: 'old-2' }));
    const before = s.size;
    const r = w.cancelReplace(uid, { symbol: 'BTCUSDT', price: '41000', size: '0.1', orderId: old.orderId, newClientOid: 'taken' });
    expect(r.success).toBe('failure');
    expect(r.msg).toContain('taken');
    expect(s.get(old.orderId)!.status).toBe('cancelled');
    expect(s.size).toBe(before);
  });

  it('reports a failure for an unknown or already-filled order, and 40019 without an id', () => {
    const { w, uid } = setup();
    expect(w.cancelReplace(uid, { symbol: 'BTCUSDT', price: '1', size: '1', orderId: '123' }).success).toBe('failure');
    const filled = w.placeSpotOrder(uid, { symbol: 'BTCUSDT', side: 'buy', orderType: 'market', size: '10' });
    expect(w.cancelReplace(uid, { symbol: 'BTCUSDT', price: '1', size: '1', orderId: filled.orderId }).msg).toContain('filled');
    expect(errorOf(() => w.cancelReplace(uid, { symbol: 'BTCUSDT', price: '1', size: '1' })).code).toBe('40019');
  });

  it('can cancel a live order from the generated history', () => {
    const { w, uid } = setup();
    const live = [...w.series(uid, 'spotOrders', 'all').all()].find((o) => o.status === 'live')!;
    const r = w.cancelReplace(uid, { symbol: live.symbol, price: live.price, size: live.size, clientOid: live.clientOid });
    expect(r.success).toBe('success');
    expect(w.series(uid, 'spotOrders', 'all').get(live.orderId)!.status).toBe('cancelled');
  });
});

describe('E3 futures orders', () => {
  it('a demo account trades SBTCSUSDT with SUSDT; a mismatched coin or a real type fails', () => {
    const w = tinyWorld(11);
    const demo = w.accounts.find((a) => a.demo)!;
    const base = { symbol: 'SBTCSUSDT', productType: 'SUSDT-FUTURES', marginMode: 'isolated', marginCoin: 'SUSDT', size: '0.01', side: 'buy', tradeSide: 'open', orderType: 'limit', force: 'gtc', price: '60000' };
    const r = w.placeFuturesOrder(demo.uid, base);
    const o = w.series(demo.uid, 'futuresOrders', 'SUSDT-FUTURES').get(r.orderId)!;
    expect(o).toMatchObject({ status: 'filled', symbol: 'SBTCSUSDT', marginCoin: 'SUSDT', posMode: 'hedge_mode', posSide: 'long' });
    expect(w.series(demo.uid, 'futuresFills', 'SUSDT-FUTURES').query({ limit: 1 })[0]!.orderId).toBe(r.orderId);
    expect(errorOf(() => w.placeFuturesOrder(demo.uid, { ...base, marginCoin: 'USDT' })).code).toBe('40017');
    expect(errorOf(() => w.placeFuturesOrder(demo.uid, { ...base, symbol: 'BTCUSDT' })).code).toBe('40017');
    expect(errorOf(() => w.placeFuturesOrder(demo.uid, { ...base, symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT' })).code).toBe('40099');
    const real = w.accounts[0]!;
    expect(errorOf(() => w.placeFuturesOrder(real.uid, base)).code).toBe('40099');
    expect(w.placeFuturesOrder(real.uid, { ...base, symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT' }).orderId).toMatch(/^\d+$/);
  });
});

describe('E6/E7 sub-accounts and keys', () => {
  const item = { subAccountName: 'abcdefgh', passphrase: 'Passw0rd99', label: 'bot' };

  it('creates a sub-account that is listed and owns its key', () => {
    const { w, uid } = setup();
    const { account, key } = w.createSubAccount(uid, { ...item, permList: ['read', 'spot_trade'], ipList: ['1.2.3.4'] });
    expect(account.parentUid).toBe(uid);
    expect(w.accounts[0]!.subUids).toContain(account.uid);
    expect(w.subAccounts(uid)[0]).toMatchObject({ subAccountUid: account.uid, subAccountName: 'abcdefgh', status: 'normal', label: 'bot' });
    expect(w.keyOwner(key.apiKey)?.account.uid).toBe(account.uid);
    expect(key).toMatchObject({ passphrase: 'Passw0rd99', perms: ['read', 'spot_trade'], ipList: ['1.2.3.4'] });
    expect(w.series(account.uid, 'spotOrders', 'all').size).toBe(0);
  });

  it('validates names, passphrases, labels, IP lists and permissions', () => {
    const { w, uid } = setup();
    const code = (it: Parameters<World['createSubAccount']>[1]) => errorOf(() => w.createSubAccount(uid, it)).code;
    expect(code({ ...item, subAccountName: 'short' })).toBe('40017');
    expect(code({ ...item, subAccountName: 'abcdefg1' })).toBe('40017');
    expect(code({ ...item, passphrase: 'onlyletters' })).toBe('40017');
    expect(code({ ...item, passphrase: 'Ab1' })).toBe('40017');
    expect(code({ ...item, passphrase: `A1${'x'.repeat(31)}` })).toBe('40017');
    expect(code({ ...item, passphrase: '' })).toBe('40019');
    expect(code({ ...item, label: 'x'.repeat(21) })).toBe('40017');
    expect(code({ ...item, ipList: Array.from({ length: 31 }, (_, i) => `10.0.0.${i}`) })).toBe('40017');
    expect(code({ ...item, permList: ['withdraw' as 'read'] })).toBe('40017');
    expect(errorOf(() => w.createSubAccount(w.accounts[1]!.uid, item)).code).toBe('40014');
    expect(w.createSubAccount(uid, { ...item, ipList: Array.from({ length: 30 }, (_, i) => `10.0.0.${i}`) }).key.ipList).toHaveLength(30);
  });

  it('allows 20 sub-accounts per main and 10 keys per sub', () => {
    const { w, uid } = setup();
    const names = Array.from({ length: 17 }, (_, i) => `subname${String.fromCharCode(97 + i)}`);
    for (const n of names) w.createSubAccount(uid, { ...item, subAccountName: n });
    expect(w.accounts[0]!.subUids).toHaveLength(20);
    expect(errorOf(() => w.createSubAccount(uid, { ...item, subAccountName: 'onemorex' })).message).toContain('20');
    const sub = w.accounts[0]!.subUids[0]!;
    for (let i = w.account(sub)!.keys.length; i < 10; i++) w.createSubAccountKey(uid, sub, { passphrase: 'Passw0rd99', label: `k${i}` });
    expect(w.account(sub)!.keys).toHaveLength(10);
    expect(errorOf(() => w.createSubAccountKey(uid, sub, { passphrase: 'Passw0rd99', label: 'k11' })).message).toContain('10');
    expect(errorOf(() => w.createSubAccountKey(uid, '42', { passphrase: 'Passw0rd99', label: 'x' })).code).toBe('40034');
  });
});

describe('E9/E18 withdrawals', () => {
  it('E18 leaves a pending withdrawal in the caller\'s records', () => {
    const { w, uid } = setup();
    const r = w.withdraw(uid, { coin: 'USDT', transferType: 'on_chain', chain: 'TRC20', address: 'Tabc', size: '25', clientOid: 'w-1' });
    expect(r.clientOid).toBe('w-1');
    expect(w.series(uid, 'withdrawals', 'all').get(r.orderId)).toMatchObject({ status: 'pending', fee: '-1', chain: 'TRC20', size: '25', dest: 'on_chain' });
    expect(errorOf(() => w.withdraw(uid, { coin: 'USDT', transferType: 'on_chain', chain: 'TRC20', address: 'Tabc', size: '25', clientOid: 'w-1' })).code).toBe('40017');
    expect(errorOf(() => w.withdraw(uid, { coin: 'USDT', transferType: 'on_chain', address: 'Tabc', size: '25' })).code).toBe('40019');
    expect(errorOf(() => w.withdraw(uid, { coin: 'USDT', transferType: 'on_chain', chain: 'BTC', address: 'x', size: '25' })).code).toBe('40017');
    expect(errorOf(() => w.withdraw(uid, { coin: 'USDT', transferType: 'on_chain', chain: 'TRC20', address: 'x', size: '1' })).message).toContain('minimum');
    expect(errorOf(() => w.withdraw(uid, { coin: 'NOPE', transferType: 'on_chain', chain: 'TRC20', address: 'x', size: '1' })).code).toBe('40034');
  });

  it('E9 is for the broker main account, books on the sub and accepts only the listed coins', () => {
    const { w, uid } = setup();
    const sub = w.accounts[0]!.subUids[0]!;
    const r = w.withdraw(uid, { subUid: sub, coin: 'SOL', dest: 'internal_transfer', address: '123', amount: '2' });
    expect(w.series(sub, 'withdrawals', 'all').get(r.orderId)).toMatchObject({ status: 'pending', coin: 'SOL', dest: 'internal_transfer', toAddress: '123' });
    expect(w.series(uid, 'withdrawals', 'all').get(r.orderId)).toBeUndefined();
    expect(errorOf(() => w.withdraw(uid, { subUid: sub, coin: 'DOGE', dest: 'internal_transfer', address: '1', amount: '50' })).code).toBe('40017');
    expect(errorOf(() => w.withdraw(sub, { subUid: sub, coin: 'BTC', dest: 'internal_transfer', address: '1', amount: '1' })).code).toBe('40014');
    const trader = w.accounts.find((a) => a.copyTrader)!;
    expect(errorOf(() => w.withdraw(trader.uid, { subUid: sub, coin: 'BTC', dest: 'internal_transfer', address: '1', amount: '1' })).code).toBe('40014');
  });
});
