import { useCallback, useEffect, useRef, useState } from 'react';

/** The 'Copied mix' bubble shows for 1.2 s (docs/rules.md#timings). */
export const COPIED_BUBBLE_MS = 1200;

export const sharedMixUrl = (mixId: string) => new URL(`/shared-mix/${mixId}`, window.location.origin).toString();

async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Older browsers and insecure origins: a hidden field and the copy command.
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.style.position = 'fixed';
  field.style.opacity = '0';
  document.body.append(field);
  field.select();
  document.execCommand('copy');
  field.remove();
}

/** Copies a link and reports `copied` for 1.2 s (the bubble). */
export function useCopyLink(): { copied: boolean; copy(url: string): void } {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = useCallback((url: string) => {
    writeClipboard(url)
      .catch(() => undefined)
      .finally(() => {
        setCopied(true);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setCopied(false), COPIED_BUBBLE_MS);
      });
  }, []);
  return { copied, copy };
}
