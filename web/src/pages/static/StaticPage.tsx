import type { ReactNode } from 'react';
import { AppShell } from '../../components/AppShell';
import styles from './StaticPage.module.css';

interface StaticPageProps {
  title: string;
  /** Under the heading: an effective date, a summary. */
  intro?: ReactNode;
  children: ReactNode;
}

/** The frame of the public text pages (/privacy, /terms, /change-log, see docs/static-pages.md): wordmark, Login, a readable column. */
export function StaticPage({ title, intro, children }: StaticPageProps) {
  return (
    <AppShell label={title} variant="public" columns={1}>
      <article className={styles.article}>
        <header className={styles.header}>
          <h1 className={styles.title}>{title}</h1>
          {intro ? <div className={styles.intro}>{intro}</div> : null}
        </header>
        {children}
      </article>
    </AppShell>
  );
}
