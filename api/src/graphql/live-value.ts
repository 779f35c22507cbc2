/** A value read at a moment (`at`, ms since the epoch, the database's clock). */
export interface Stamped {
  at: number;
}

/** Hears one topic's events until the returned function is called. */
export type Listen = (topic: string, listener: (payload: unknown) => void) => () => void;

/** Who takes a live value's values as they come (see LiveValue.pushTo), instead of asking with next(). */
export interface ValueConsumer<T> {
  /** While true, values wait (only the newest is kept) until the consumer calls resume(). */
  readonly busy: boolean;
  take(value: T): void;
  /** The current value could not be read: the stream has ended. */
  fail(error: unknown): void;
}

/**
 * A live value for a subscription: the current value first, then every change. It starts hearing changes before it
 * reads the current value, so nothing that happens in between is missed. A change read before the newest value it has
 * (events cross processes out of order) is dropped, and so is one equal to the value last sent. Only the newest value
 * waits for a slow consumer: a socket that cannot keep up gets the latest value, never a backlog.
 */
export class LiveValue<T extends Stamped> implements AsyncIterableIterator<T> {
  private newest: T | null = null;
  private pending: T | null = null;
  private sent: T | null = null;
  private waiting: { resolve(result: IteratorResult<T>): void; reject(error: unknown): void } | null = null;
  private consumer: ValueConsumer<T> | null = null;
  private failed: unknown = null;
  private done = false;
  /** Nothing is sent before the current value is read: the first message is it, or a change newer than it. */
  private ready = false;
  private readonly stopListening: () => void;

  constructor(
    listen: Listen,
    topic: string,
    current: () => Promise<T>,
    private readonly sameValue: (a: T, b: T) => boolean,
  ) {
    this.stopListening = listen(topic, (payload) => this.offer(payload as T));
    current().then(
      (value) => {
        this.ready = true;
        this.offer(value);
        this.wake();
      },
      (error: unknown) => {
        this.failed = error ?? new Error('The current value could not be read');
        this.wake();
      },
    );
  }

  private offer(value: T): void {
    if (this.done || (this.newest && value.at < this.newest.at)) return;
    this.newest = value;
    this.pending = value;
    this.wake();
  }

  /** The value to send now, if any: the pending one unless it repeats what was sent. */
  private take(): T | null {
    if (!this.ready) return null;
    const value = this.pending;
    this.pending = null;
    if (!value || (this.sent && this.sameValue(value, this.sent))) return null;
    this.sent = value;
    return value;
  }

  /**
   * Hands every value to `consumer` as it comes, in place of next(): a count watched by thousands of sockets then
   * costs no promise per socket and event. Values offered while the consumer is busy wait for resume(), newest only.
   */
  pushTo(consumer: ValueConsumer<T>): void {
    this.consumer = consumer;
    this.wake();
  }

  /** A busy consumer is ready again: it gets the newest value it has not had, if any. */
  resume(): void {
    this.wake();
  }

  private wake(): void {
    const consumer = this.consumer;
    if (consumer) {
      if (this.done) return;
      if (this.failed) {
        const error = this.failed;
        this.finish();
        consumer.fail(error);
        return;
      }
      if (consumer.busy) return;
      const value = this.take();
      if (value) consumer.take(value);
      return;
    }
    const waiting = this.waiting;
    if (!waiting) return;
    if (this.failed) {
      this.waiting = null;
      const error = this.failed;
      this.finish();
      waiting.reject(error);
      return;
    }
    const value = this.take();
    if (!value) return;
    this.waiting = null;
    waiting.resolve({ value, done: false });
  }

  next(): Promise<IteratorResult<T>> {
    if (this.failed && !this.done) {
      const error = this.failed;
      this.finish();
      return Promise.reject(error);
    }
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    const value = this.take();
    if (value) return Promise.resolve({ value, done: false });
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.stopListening();
    this.pending = null;
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.resolve({ value: undefined, done: true });
  }

  return(): Promise<IteratorResult<T>> {
    this.finish();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
