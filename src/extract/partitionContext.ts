import type { AccountSession } from './exchangeSession.js';
import type { PartitionContext } from './streamDef.js';
import { asList } from './asList.js';
import { fetchSubAccounts } from './fetchSubAccounts.js';

/**
 * The lazy, memoised facts partitions are chosen from: the spot symbol list (configured, or the
 * public X10 list fetched once per run) and a main account's sub-account UIDs (E10).
 *
 * @example
 * const ctx = partitionContext(session, symbolList);
 */
export function partitionContext(session: AccountSession, symbols: () => Promise<readonly string[]>): PartitionContext {
  let subs: Promise<readonly string[]> | undefined;
  return {
    demo: session.demo,
    main: session.account.kind === 'main',
    symbols,
    call: session.call,
    subAccountUids: () => {
      subs ??= fetchSubAccounts(session.call).then((list) => list
        .map((s) => s.subAccountUid)
        .filter((u): u is string | number => typeof u === 'string' || typeof u === 'number')
        .map(String));
      return subs;
    },
  };
}

/**
 * The public spot symbol list (X10), as symbol names and a symbol -> coins lookup.
 *
 * @example
 * const book = await symbolBook(session.call);
 */
export async function symbolBook(call: AccountSession['call']): Promise<{ names: string[]; coins: Map<string, { baseCoin: string; quoteCoin: string }> }> {
  const list = asList(await call('publicSymbols', {}));
  const coins = new Map<string, { baseCoin: string; quoteCoin: string }>();
  const names: string[] = [];
  for (const s of list) {
    if (typeof s.symbol !== 'string') continue;
    if (typeof s.baseCoin === 'string' && typeof s.quoteCoin === 'string') coins.set(s.symbol, { baseCoin: s.baseCoin, quoteCoin: s.quoteCoin });
    if (s.status === undefined || s.status === 'online') names.push(s.symbol);
  }
  return { names, coins };
}
