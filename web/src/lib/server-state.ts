import { SERVER_STATE_ID } from '@mixcrate/api/server-render';
import { readToken } from './storage';

const stateElement = () => (typeof document === 'undefined' ? null : document.getElementById(SERVER_STATE_ID));

/**
 * Whether the page came rendered from the server and may be hydrated as it is. The server renders shared pages as
 * anybody sees them; a signed-in member sees them with their own session (saved, own mix), so the client renders those.
 */
export function canHydrateServerRender(): boolean {
  return stateElement() !== null && readToken() === null;
}

/** The data the server rendered with (Apollo's cache), once; null when there is none or it may not be used. */
export function takeServerState(): unknown {
  const usable = canHydrateServerRender();
  const element = stateElement();
  element?.remove();
  if (!element || !usable) return null;
  try {
    return JSON.parse(element.textContent ?? 'null');
  } catch {
    return null;
  }
}
