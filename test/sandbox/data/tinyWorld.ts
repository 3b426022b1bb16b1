import { createWorld } from '../../../src/sandbox/data/createWorld.js';
import type { HistoryResource, World } from '../../../src/sandbox/world.js';

/** A fixed anchor so every test world is reproducible. */
export const anchor = Date.UTC(2026, 9, 1, 12, 0, 0);

export function tinyWorld(seed = 1, scale = 'tiny'): World {
  return createWorld({ seed, scale, now: anchor });
}

const cache = new WeakMap<World, Map<HistoryResource, Record<string, unknown>[]>>();

/** Every record of one resource across all accounts and partitions, as plain objects (read once per world). */
export function recordsOf(world: World, resource: HistoryResource): Record<string, unknown>[] {
  let byResource = cache.get(world);
  if (byResource === undefined) {
    byResource = new Map();
    for (const t of world.truth()) {
      const list = byResource.get(t.resource) ?? [];
      list.push(t.record as Record<string, unknown>);
      byResource.set(t.resource, list);
    }
    cache.set(world, byResource);
  }
  return byResource.get(resource) ?? [];
}

export function valuesOf(world: World, resource: HistoryResource, field: string): Set<unknown> {
  return new Set(recordsOf(world, resource).map((r) => r[field]));
}
