import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import styles from './Trust.module.css';

/**
 * The mix card's "More" menu (docs/mix-page.md#mix-card): a disclosure button and a short list of actions. Escape closes
 * it and gives the focus back to the button; choosing an action closes it too.
 */
export function MixCardMenu({ title, actions }: { title: string; actions: readonly { label: string; run: () => void }[] }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (open) list.current?.querySelector('button')?.focus();
  }, [open]);
  if (actions.length === 0) return null;
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      setOpen(false);
      button.current?.focus();
    }
  };
  return (
    <span className={styles.menuWrap}>
      <button
        ref={button}
        type="button"
        className={styles.moreButton}
        aria-label={`More actions for ${title}`}
        aria-expanded={open}
        aria-controls={menuId}
        onKeyDown={closeOnEscape}
        onClick={() => setOpen((was) => !was)}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      <ul ref={list} id={menuId} className={styles.menu} hidden={!open}>
        {actions.map((action) => (
          <li key={action.label}>
            <button
              type="button"
              className={styles.menuItem}
              onKeyDown={closeOnEscape}
              onClick={() => {
                setOpen(false);
                action.run();
              }}
            >
              {action.label}
            </button>
          </li>
        ))}
      </ul>
    </span>
  );
}
