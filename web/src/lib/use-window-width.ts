import { useSyncExternalStore } from 'react';

const subscribe = (onChange: () => void) => {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
};

/** The window's width, updated on resize (truncates names by it, see docs/rules.md#display-formats). */
export function useWindowWidth(): number {
  return useSyncExternalStore(
    subscribe,
    () => window.innerWidth,
    () => 1280,
  );
}

/** Sidebars (saved mixes, saved tracks, follow tabs) appear on wide screens (docs/navigation.md#layout). */
export const WIDE_SCREEN = 1100;
