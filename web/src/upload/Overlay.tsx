import { type ReactNode, useEffect, useId, useRef } from 'react';
import styles from './Upload.module.css';

interface OverlayProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  /** Escape does this; without it Escape does nothing (an upload in progress is only left by its Cancel button). */
  onDismiss?: () => void;
}

/** A modal panel over the step (a <dialog> shown modally: focus stays inside, the page behind is inert). */
export function Overlay({ open, title, children, onDismiss }: OverlayProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal?.();
    if (!open && element.open) element.close?.();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      className={styles.overlay}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onDismiss?.();
      }}
    >
      <div className={styles.overlayPanel}>
        <h2 id={titleId} className={styles.sectionTitle}>
          {title}
        </h2>
        {children}
      </div>
    </dialog>
  );
}
