import type { Permission } from '../../../api/endpoints.js';
import type { SandboxAccount, SandboxKey } from '../../world.js';
import { ApiFailure } from '../ApiFailure.js';
import { callerOf, type Handler, type RequestContext } from '../RequestContext.js';
import { RequestParams } from '../RequestParams.js';
import { pageLimit } from '../endpointRules.js';

const perms: readonly Permission[] = ['spot_trade', 'margin_trade', 'contract_trade', 'read'];
const maxBatch = 5;
const maxIps = 30;

/** E6, E7 (create), E8 (list keys), E10 (list sub-accounts): main accounts only (40014). */
export const userRoutes: Record<'batchCreateSubAccounts' | 'createSubAccountApiKey' | 'subAccountApiKeys' | 'subAccounts', Handler> = {
  batchCreateSubAccounts(ctx) {
    const main = mainCaller(ctx);
    if (!Array.isArray(ctx.body)) throw ApiFailure.of('40017', 'the body must be a JSON array of sub-accounts');
    if (ctx.body.length === 0) throw ApiFailure.of('40019', 'body');
    if (ctx.body.length > maxBatch) throw ApiFailure.of('40017', `at most ${maxBatch} sub-accounts per request (got ${ctx.body.length})`);
    const items = ctx.body.map((raw) => {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw ApiFailure.of('40017', 'each item must be an object');
      const p = RequestParams.fromObject(raw as Record<string, unknown>);
      const subAccountName = p.required('subAccountName');
      if (!/^[A-Za-z]{8}$/.test(subAccountName)) throw ApiFailure.of('40017', `subAccountName must be 8 English letters (got ${subAccountName})`);
      return { subAccountName, ...keyFields(p) };
    });
    return items.map((item) => {
      const { account, key } = ctx.world.createSubAccount(main.uid, item);
      return { subAccountUid: account.uid, subAccountName: account.name, ...keyView(key, true) };
    });
  },

  createSubAccountApiKey(ctx) {
    const sub = ownSub(ctx, mainCaller(ctx), ctx.params.required('subAccountUid'));
    const key = ctx.world.createSubAccountKey(callerOf(ctx).uid, sub.uid, keyFields(ctx.params));
    return { subAccountUid: sub.uid, ...keyView(key, true) };
  },

  subAccountApiKeys(ctx) {
    const sub = ownSub(ctx, mainCaller(ctx), ctx.params.required('subAccountUid'));
    return sub.keys.map((key) => ({ subAccountUid: sub.uid, ...keyView(key, false) }));
  },

  /** Newest sub-account first; `endId` is a Number, as in the spec's sample (kept, not fixed). */
  subAccounts(ctx) {
    const main = mainCaller(ctx);
    const limit = pageLimit(ctx);
    const cursor = ctx.params.id('idLessThan');
    const status = ctx.params.choice('status', ['normal', 'freeze'] as const);
    const list = ctx.world.subAccounts(main.uid)
      .filter((s) => (status === undefined || s.status === status) && (cursor === undefined || BigInt(s.subAccountUid) < cursor))
      .sort((a, b) => (BigInt(b.subAccountUid) > BigInt(a.subAccountUid) ? 1 : -1))
      .slice(0, limit);
    const last = list.at(-1);
    return { endId: last ? Number(last.subAccountUid) : null, subAccountList: list };
  },
};

function mainCaller(ctx: RequestContext): SandboxAccount {
  const caller = callerOf(ctx);
  if (!caller.main) throw ApiFailure.of('40014', 'main account');
  return caller;
}

function ownSub(ctx: RequestContext, main: SandboxAccount, subUid: string): SandboxAccount {
  const sub = ctx.world.account(subUid);
  if (!sub || sub.parentUid !== main.uid) throw ApiFailure.of('40017', `subAccountUid ${subUid} is not a sub-account of this account`);
  return sub;
}

function keyFields(p: RequestParams): { passphrase: string; label: string; ipList?: string[]; permList?: Permission[] } {
  const passphrase = p.required('passphrase');
  if (!/^(?=.*[A-Za-z])(?=.*\d)[A-Za-z0-9]{8,32}$/.test(passphrase)) {
    throw ApiFailure.of('40017', 'passphrase must be 8-32 English letters and numbers, with at least one of each');
  }
  const label = p.required('label');
  if (label.length > 20) throw ApiFailure.of('40017', `label must be at most 20 characters (got ${label.length})`);
  const out: { passphrase: string; label: string; ipList?: string[]; permList?: Permission[] } = { passphrase, label };
  const ipList = p.list('ipList', maxIps);
  if (ipList) {
    if (!ipList.every((ip) => typeof ip === 'string' && ip !== '')) throw ApiFailure.of('40017', 'ipList must hold IP address Strings');
    out.ipList = ipList as string[];
  }
  const permList = p.list('permList', perms.length);
  if (permList) {
    const bad = permList.find((x) => !perms.includes(x as Permission));
    if (bad !== undefined) throw ApiFailure.of('40017', `permList values must be among ${perms.join(', ')} (got ${String(bad)})`);
    out.permList = permList as Permission[];
  }
  return out;
}

function keyView(key: SandboxKey, withSecret: boolean) {
  const view = { label: key.label, subAccountApiKey: key.apiKey, permList: key.perms, ipList: key.ipList };
  return withSecret ? { ...view, secretKey: key.secretKey } : view;
}
