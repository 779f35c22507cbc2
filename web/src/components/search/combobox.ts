/**
 * The search box's keyboard (docs/search.md#the-search-box), as a pure function so it is tested without a browser:
 * the ARIA 1.2 combobox pattern with a listbox popup. Arrow keys move the active option (wrapping, and opening the
 * list when closed), Enter picks the active option or, with none, searches for the text, Escape closes the list, and
 * a second Escape clears the text.
 */
export interface ComboboxState {
  open: boolean;
  /** Index of the active option, or -1 for none (the text field itself). */
  active: number;
}

/** What the box should do after a key besides changing its state. */
export type ComboboxEffect = { kind: 'pick'; index: number } | { kind: 'search' } | { kind: 'clear' } | null;

export function comboboxKey(
  state: ComboboxState,
  key: string,
  options: number,
  text: string,
): { state: ComboboxState; effect: ComboboxEffect; handled: boolean } {
  switch (key) {
    case 'ArrowDown':
    case 'ArrowUp': {
      if (options === 0) return { state, effect: null, handled: text.trim() !== '' };
      if (!state.open) return { state: { open: true, active: key === 'ArrowDown' ? 0 : options - 1 }, effect: null, handled: true };
      const step = key === 'ArrowDown' ? 1 : -1;
      const next = state.active + step;
      const active = next >= options ? 0 : next < 0 ? options - 1 : next;
      return { state: { open: true, active }, effect: null, handled: true };
    }
    case 'Enter':
      if (state.open && state.active >= 0 && state.active < options)
        return { state: { open: false, active: -1 }, effect: { kind: 'pick', index: state.active }, handled: true };
      if (text.trim() === '') return { state, effect: null, handled: false };
      return { state: { open: false, active: -1 }, effect: { kind: 'search' }, handled: true };
    case 'Escape':
      if (state.open) return { state: { open: false, active: -1 }, effect: null, handled: true };
      return { state, effect: text === '' ? null : { kind: 'clear' }, handled: text !== '' };
    case 'Home':
    case 'End':
      if (!state.open || options === 0) return { state, effect: null, handled: false };
      return { state: { open: true, active: key === 'Home' ? 0 : options - 1 }, effect: null, handled: true };
    default:
      return { state, effect: null, handled: false };
  }
}

/** Whether `/` should focus the search box: not while typing in a field (docs/search.md#the-search-box). */
export function slashFocuses(target: EventTarget | null): boolean {
  if (!target || typeof target !== 'object' || !('tagName' in target)) return true;
  const element = target as HTMLElement;
  const tag = element.tagName.toLowerCase();
  return !(tag === 'input' || tag === 'textarea' || tag === 'select' || element.isContentEditable);
}
