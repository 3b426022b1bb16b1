/** What one stream partition did in a run: stored in sync_runs.counts and printed by --json. */
export interface StreamCounts {
  inserted: number;
  updated: number;
  unchanged: number;
  pages: number;
  requests: number;
  windows: number;
}

/** @example const c = emptyCounts(); c.inserted += 5; */
export function emptyCounts(): StreamCounts {
  return { inserted: 0, updated: 0, unchanged: 0, pages: 0, requests: 0, windows: 0 };
}
