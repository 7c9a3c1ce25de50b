import { chunksPerTick, STREAM_TICK_MS } from '../../../../shared/domain/chat';

/**
 * Catch-up rule on top of spec §9: the spec's 1/2/4/8 chunks per 50 ms tick releases at most 160
 * chunks/s, so a faster stream would fall further and further behind. A tick therefore releases
 * the spec's count or a 1/MAX_BACKLOG_TICKS share of the queue, whichever is larger. A stream
 * arriving at r chunks per tick then settles at a queue of about MAX_BACKLOG_TICKS * r, i.e. the
 * screen is at most ~200 ms behind arrival at any speed, while slow streams keep the spec's rhythm.
 */
export const MAX_BACKLOG_TICKS = 4;

/** How many queued chunks one tick releases. */
export function chunksToRelease(queueLength: number): number {
  if (queueLength <= 0) return 0;
  return Math.min(queueLength, Math.max(chunksPerTick(queueLength), Math.ceil(queueLength / MAX_BACKLOG_TICKS)));
}

/** Spec §9's counts alone, without the catch-up: what `npm run bench:stream` compares ours with. */
export function specChunksToRelease(queueLength: number): number {
  return Math.min(Math.max(queueLength, 0), chunksPerTick(queueLength));
}

/** A batching rule: how many of the queued chunks one tick releases. */
export type ReleaseRule = (queueLength: number) => number;

/**
 * Queues streamed text chunks and releases them on a STREAM_TICK_MS timer. The timer runs only
 * while something is queued, so an idle or finished answer costs nothing.
 */
export class OutputBatcher {
  private queue: string[] = [];
  private head = 0;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly onRelease: (text: string) => void,
    private readonly releaseRule: ReleaseRule = chunksToRelease,
  ) {}

  get pending(): number {
    return this.queue.length - this.head;
  }

  push(chunk: string): void {
    if (chunk === '') return;
    this.queue.push(chunk);
    this.timer ??= setInterval(() => this.tick(), STREAM_TICK_MS);
  }

  /** Stops releasing; the owner shows the full received text itself when the answer settles. */
  dispose(): void {
    this.stopTimer();
    this.queue = [];
    this.head = 0;
  }

  private tick(): void {
    this.release(this.releaseRule(this.pending));
    if (this.pending === 0) this.stopTimer();
  }

  private release(count: number): void {
    const text = this.queue.slice(this.head, this.head + count).join('');
    this.head += count;
    // Compact now and then instead of shifting on every tick.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    this.onRelease(text);
  }

  private stopTimer(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}
