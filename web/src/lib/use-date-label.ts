import { useSyncExternalStore } from 'react';
import { formatDate } from './format';

const unchanging = () => () => undefined;

/**
 * A date (docs/rules.md#display-formats) in the visitor's time zone. A server render cannot know that zone and writes UTC; while such a page
 * hydrates the client writes UTC too (the markup must match), then React renders the local date.
 */
export function useDateLabel(value: string): string {
  return useSyncExternalStore(
    unchanging,
    () => formatDate(value),
    () => formatDate(value, 'UTC'),
  );
}
