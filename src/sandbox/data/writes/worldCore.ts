import type { SandboxAccount } from '../../world.js';
import type { SubAccountMeta } from '../buildAccounts.js';
import type { SeriesBook } from '../seriesBook.js';

/** The parts of a world that its write desks read and change. */
export interface WorldCore {
  readonly seed: number;
  now(): number;
  readonly book: SeriesBook;
  readonly accounts: SandboxAccount[];
  readonly subMeta: Map<string, SubAccountMeta>;
  account(uid: string): SandboxAccount | undefined;
  /** A counter for deterministic client ids and new uids: same calls, same values. */
  nextSerial(): number;
}
