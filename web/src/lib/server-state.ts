import { readToken } from './storage';

/** The element the server puts a rendered page's data in (JSON), beside the rendered markup in #root. */
export const SERVER_STATE_ID = 'mixcrate-state';

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
  const element = stateElement();
  if (!element) return null;
  element.remove();
  if (readToken() !== null) return null;
  try {
    return JSON.parse(element.textContent ?? 'null');
  } catch {
    return null;
  }
}
