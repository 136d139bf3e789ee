import type { RunContext, TimerHandle, Vec3Like } from 'verbtree';

const REPORT_EVERY_MS = 1_000;

/**
 * Walks towards `cell` reporting, every second, the blocks gained so far plus the share of the way closed (under
 * one), so a walk to a block 30 or 40 blocks off reads as progress: the stuck detector waits 10 s for progress,
 * and on the server a walk to the next tree took longer (seen on world 8 of the techtree bench: stuck.progress at
 * 0/7 logs, 17 s into a walk). A walk that gets no nearer reports nothing new, and still trips it.
 */
export async function walkReportingProgress<A>(
  ctx: RunContext<A>,
  cell: Vec3Like,
  gained: number,
  total: number,
  walk: () => Promise<void>,
): Promise<void> {
  const remaining = () => {
    const { x, y, z } = ctx.world.position();
    return Math.hypot(x - (cell.x + 0.5), y - cell.y, z - (cell.z + 0.5));
  };
  const from = Math.max(remaining(), 1);
  let timer: TimerHandle;
  const tick = () => {
    const closed = Math.max(0, Math.min(0.99, (from - remaining()) / from));
    ctx.progress(gained + Math.floor(closed * 100) / 100, total);
    timer = ctx.clock.setTimeout(tick, REPORT_EVERY_MS);
  };
  timer = ctx.clock.setTimeout(tick, REPORT_EVERY_MS);
  try {
    await walk();
  } finally {
    ctx.clock.clearTimeout(timer);
  }
}
