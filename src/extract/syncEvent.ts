/**
 * What the sync reports as it goes, for the live display and the JSON log lines. Never carries a
 * secret. `stream` and `partition` name where it happened; `account` is the account's name.
 */
export type SyncEvent =
  | { type: 'run-start'; runId: string; accounts: number; tasks: number }
  | { type: 'partition-start'; account: string; stream: string; partition: string; windows: number }
  | { type: 'page'; account: string; stream: string; partition: string; records: number; inserted: number; updated: number; window: number; windows: number }
  /** A partition's plan grew after its start (cut into parallel windows, or planned after resumed ones). */
  | { type: 'windows-added'; account: string; stream: string; partition: string; windows: number }
  | { type: 'window-done'; account: string; stream: string; partition: string; window: number; windows: number }
  | { type: 'gap'; account: string; stream: string; partition: string; from: string; to: string }
  /** A later sync's --since is before where the partition's history began: [from, to) is read first. */
  | { type: 'backfill'; account: string; stream: string; partition: string; from: string; to: string }
  | { type: 'partition-done'; account: string; stream: string; partition: string; records: number; inserted: number; updated: number; unchanged: number }
  | { type: 'partition-failed'; account: string; stream: string; partition: string; code: string; message: string }
  | { type: 'rate-wait'; account: string; endpoint: string; ms: number }
  /** `reason` in words (the failure's message: endpoint, what happened, the exchange's code); `code` the exchange's code or `HTTP nnn` where there is one, for filtering. */
  | { type: 'retry'; account: string; endpoint: string; ms: number; reason: string; code?: string }
  | { type: 'run-done'; runId: string; status: string; inserted: number; updated: number; unchanged: number; failed: number };

export type SyncEventSink = (event: SyncEvent) => void;
