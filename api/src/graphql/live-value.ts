import { Repeater } from '@repeaterjs/repeater';

/** A value read at a moment (`at`, ms since the epoch, the database's clock). */
export interface Stamped {
  at: number;
}

/**
 * A live value for a subscription: the current value first, then every change. It starts hearing changes before it
 * reads the current value, so nothing that happens in between is missed; a change read before the last value sent
 * (events cross processes out of order) and a change to the value already shown are dropped.
 */
export function currentThenChanges<T extends Stamped>(
  changes: AsyncIterable<unknown>,
  current: () => Promise<T>,
  sameValue: (a: T, b: T) => boolean,
): Repeater<T> {
  return new Repeater<T>(async (push, stop) => {
    const iterator = changes[Symbol.asyncIterator]();
    // Asking for the first change starts the hearing (a PubSub subscription listens from its first pull).
    let next = iterator.next();
    let stopped = false;
    void stop.then(() => {
      stopped = true;
      void iterator.return?.();
    });
    try {
      let last = await current();
      if (stopped) return;
      await push(last);
      while (!stopped) {
        const result = await Promise.race([next, stop.then(() => null)]);
        if (!result || result.done) break;
        const change = result.value as T;
        if (change.at >= last.at && !sameValue(change, last)) {
          last = change;
          await push(change);
        }
        next = iterator.next();
      }
    } catch (error) {
      stop(error);
    } finally {
      stop();
    }
  });
}
