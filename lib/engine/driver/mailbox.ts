/**
 * A FIFO with an awaitable `take`: step completions, usage reports, timers and cancel polls push
 * into it from any promise, and ONE loop takes items one at a time, so planning and committing
 * never race (the driver's serialised reducer).
 */
export class Mailbox<T> {
  private readonly items: T[] = [];
  private waiter: (() => void) | undefined;

  /** Enqueues an item and wakes the taker. */
  push(item: T): void {
    this.items.push(item);
    this.wake();
  }

  /** Wakes a pending `take` without an item (it then answers undefined), e.g. when a step promise settles. */
  wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }

  /** Whether any queued item matches. */
  some(pred: (item: T) => boolean): boolean {
    return this.items.some(pred);
  }

  /** Resolves at the next push or wake (items stay queued). Only for the one taker, between takes. */
  changed(): Promise<void> {
    return new Promise<void>((resolve) => (this.waiter = resolve));
  }

  /** Number of queued items. */
  get size(): number {
    return this.items.length;
  }

  /** Removes and returns every queued item. */
  drain(): T[] {
    return this.items.splice(0, this.items.length);
  }

  /** The next item, or undefined after a bare wake-up. */
  async take(): Promise<T | undefined> {
    const next = this.items.shift();
    if (next !== undefined) return next;
    await new Promise<void>((resolve) => (this.waiter = resolve));
    return this.items.shift();
  }
}
