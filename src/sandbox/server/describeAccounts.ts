import type { World } from '../world.js';

/** One entry per API key, as printed on the sandbox's first stdout line. */
export interface AccountLine {
  uid: string;
  name: string;
  apiKey: string;
  secretKey: string;
  passphrase: string;
  perms: string[];
  demo: boolean;
  broker: boolean;
  main: boolean;
  subUids: string[];
}

/**
 * Lists every key of every account (an account with several keys appears once per key). The
 * keys are fake, which is why this is the one place secrets are printed.
 *
 * @example
 * describeAccounts(world)[0]; // { uid: '1001', name: 'main', apiKey: 'bg_...', ... }
 */
export function describeAccounts(world: World): AccountLine[] {
  return world.accounts.flatMap((a) => a.keys.map((k) => ({
    uid: a.uid, name: a.name, apiKey: k.apiKey, secretKey: k.secretKey, passphrase: k.passphrase, perms: [...k.perms],
    demo: a.demo, broker: a.broker, main: a.main, subUids: [...a.subUids],
  })));
}
