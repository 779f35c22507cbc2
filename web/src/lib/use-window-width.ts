import { useSyncExternalStore } from 'react';

const subscribe = (onChange: () => void) => {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
};

/** The window's width, updated on resize (SPEC §9 truncates names by it). */
export function useWindowWidth(): number {
  return useSyncExternalStore(
    subscribe,
    () => window.innerWidth,
    () => 1280,
  );
}

/** SPEC: sidebars (saved mixes, saved tracks, follow tabs) appear on wide screens. */
export const WIDE_SCREEN = 1100;
