import { createWorld } from '../../../src/sandbox/data/createWorld.js';
import type { HistoryResource, World } from '../../../src/sandbox/world.js';

/** A fixed anchor so every test world is reproducible. */
export const anchor = Date.UTC(2026, 9, 1, 12, 0, 0);

export function tinyWorld(seed = 1, scale = 'tiny'): World {
  return createWorld({ seed, scale, now: anchor });
}

/** Every record of one resource across all accounts and partitions, as plain objects. */
export function recordsOf(world: World, resource: HistoryResource): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const t of world.truth()) if (t.resource === resource) out.push(t.record as Record<string, unknown>);
  return out;
}

export function valuesOf(world: World, resource: HistoryResource, field: string): Set<unknown> {
  return new Set(recordsOf(world, resource).map((r) => r[field]));
}
