import { describe, expect, it } from 'vitest';
import { comboboxKey, slashFocuses } from './combobox';

const closed = { open: false, active: -1 };
const at = (active: number) => ({ open: true, active });

describe('the search box’s keyboard (ARIA 1.2 combobox)', () => {
  it('arrow keys open the list and move through the options, wrapping at both ends', () => {
    expect(comboboxKey(closed, 'ArrowDown', 3, 'zoe').state).toEqual(at(0));
    expect(comboboxKey(closed, 'ArrowUp', 3, 'zoe').state).toEqual(at(2));
    expect(comboboxKey(at(0), 'ArrowDown', 3, 'zoe').state).toEqual(at(1));
    expect(comboboxKey(at(2), 'ArrowDown', 3, 'zoe').state).toEqual(at(0));
    expect(comboboxKey(at(0), 'ArrowUp', 3, 'zoe').state).toEqual(at(2));
    expect(comboboxKey(at(1), 'Home', 3, 'zoe').state).toEqual(at(0));
    expect(comboboxKey(at(1), 'End', 3, 'zoe').state).toEqual(at(2));
  });

  it('Enter opens the active option, or searches for the text when none is active', () => {
    expect(comboboxKey(at(1), 'Enter', 3, 'zoe')).toEqual({ state: closed, effect: { kind: 'pick', index: 1 }, handled: true });
    expect(comboboxKey(at(-1), 'Enter', 3, 'zoe')).toEqual({ state: closed, effect: { kind: 'search' }, handled: true });
    expect(comboboxKey(closed, 'Enter', 0, 'zoe').effect).toEqual({ kind: 'search' });
    expect(comboboxKey(closed, 'Enter', 0, '  ').handled).toBe(false);
  });

  it('Escape closes the list, and a second Escape clears the text', () => {
    expect(comboboxKey(at(1), 'Escape', 3, 'zoe')).toEqual({ state: closed, effect: null, handled: true });
    expect(comboboxKey(closed, 'Escape', 3, 'zoe').effect).toEqual({ kind: 'clear' });
    expect(comboboxKey(closed, 'Escape', 3, '').handled).toBe(false);
  });

  it('with no options the arrows move nothing, and other keys are the field’s own', () => {
    expect(comboboxKey(closed, 'ArrowDown', 0, 'zoe').state).toEqual(closed);
    expect(comboboxKey(at(0), 'a', 3, 'zoe').handled).toBe(false);
    expect(comboboxKey(at(0), 'ArrowLeft', 3, 'zoe').handled).toBe(false);
  });

  it('“/” focuses the box unless one is typing in a field', () => {
    expect(slashFocuses(document.body)).toBe(true);
    expect(slashFocuses(document.createElement('input'))).toBe(false);
    expect(slashFocuses(document.createElement('textarea'))).toBe(false);
    expect(slashFocuses(document.createElement('select'))).toBe(false);
    expect(slashFocuses(null)).toBe(true);
  });
});
