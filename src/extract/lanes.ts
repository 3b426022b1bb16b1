/**
 * Runs `walk` over `items` in order, up to `lanes` at once (1 = one after another). A walk that
 * returns 'stop' ends the run: no later item starts (the answer names the first item not
 * walked). On a failure the walks under way finish, no new one starts, and the first error is
 * thrown.
 *
 * @example
 * const { stoppedAt } = await inLanes(windows, 4, async (w, i) => { await walkWindow(w); });
 */
export async function inLanes<T>(items: readonly T[], lanes: number, walk: (item: T, index: number) => Promise<void | 'stop'>): Promise<{ stoppedAt: number | undefined }> {
  let next = 0;
  let stoppedAt: number | undefined;
  const errors: unknown[] = [];
  const lane = async () => {
    while (errors.length === 0 && stoppedAt === undefined && next < items.length) {
      const index = next++;
      try {
        if ((await walk(items[index]!, index)) === 'stop') stoppedAt = index;
      } catch (e) {
        errors.push(e);
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, items.length)) }, lane));
  if (errors.length > 0) throw errors[0];
  return { stoppedAt };
}
