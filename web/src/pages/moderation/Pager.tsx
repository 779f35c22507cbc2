import buttons from '../../components/Button.module.css';
import styles from './Moderation.module.css';

/** Newer and Older for a list the API pages by 25 (the queue, the audit log, held mixes, suspended members). */
export function Pager({ page, total, onPage, label }: { page: number; total: number; onPage: (page: number) => void; label: string }) {
  const pages = Math.max(1, Math.ceil(total / 25));
  if (pages <= 1) return null;
  return (
    <nav className={styles.pager} aria-label={label}>
      <button type="button" className={buttons.secondary} disabled={page === 0} onClick={() => onPage(page - 1)}>
        Newer
      </button>
      <span>
        Page {page + 1} of {pages}
      </span>
      <button type="button" className={buttons.secondary} disabled={page + 1 >= pages} onClick={() => onPage(page + 1)}>
        Older
      </button>
    </nav>
  );
}
