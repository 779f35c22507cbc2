import { useQuery } from '@apollo/client/react';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { ViewerDocument } from '../gql/graphql';
import { readStored, StorageKeys } from '../lib/storage';
import styles from './AppShell.module.css';
import buttons from './Button.module.css';
import { Footer } from './Footer';
import { Logo } from './Logo';
import { NotificationBell } from './NotificationBell';
import { SideMenu } from './SideMenu';
import { SearchBox } from './search/SearchBox';

export interface AppShellProps {
  /** The page's heading, for screen readers when the page shows its own. */
  label: string;
  children: ReactNode;
  /** Shown beside the content on wide screens (saved mixes, saved tracks, follows). */
  sidebar?: ReactNode;
  /** Page-level column count; '1' hides the sidebar (settings) (docs/navigation.md#layout). */
  columns?: 1 | 2;
  /** Extra controls in the header (the home filter chip). */
  headerExtra?: ReactNode;
  /** Shared pages and static pages: the wordmark and a Login link instead of the menu. */
  variant?: 'private' | 'public';
}

function MenuButton({ onOpen }: { onOpen(): void }) {
  return (
    <button type="button" className={styles.menuButton} onClick={onOpen} aria-label="mixcrate: open menu" aria-haspopup="dialog">
      <span className={styles.mark} aria-hidden="true">
        <span />
        <span />
        <span />
        <span />
      </span>
      <span className={styles.word}>mixcrate</span>
    </button>
  );
}

function PrivateHeader({ headerExtra }: { headerExtra?: ReactNode }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const { data } = useQuery(ViewerDocument);
  const userName = data?.me?.userName ?? readStored(StorageKeys.userName);
  return (
    <header className={styles.header}>
      <MenuButton onOpen={() => setMenuOpen(true)} />
      <div className={styles.headerExtra}>{headerExtra}</div>
      <SearchBox />
      {userName ? <NotificationBell /> : null}
      {userName ? (
        <Link to={`/profile/${userName}`} className={styles.me} aria-label="Your profile">
          {data?.me?.imageUrl ? (
            <img src={data.me.imageUrl} alt="" width={36} height={36} />
          ) : (
            <span aria-hidden="true">{userName.slice(0, 1).toUpperCase()}</span>
          )}
        </Link>
      ) : null}
      <SideMenu open={menuOpen} onClose={() => setMenuOpen(false)} userName={userName} />
    </header>
  );
}

function PublicHeader() {
  return (
    <header className={styles.header}>
      <Logo />
      <div className={styles.headerExtra} />
      <SearchBox />
      <Link to="/signin" className={buttons.secondary}>
        Login
      </Link>
    </header>
  );
}

/** The frame of every screen after the landing page: header (menu or wordmark), content, optional sidebar, footer. */
export function AppShell({ label, children, sidebar, columns = 2, headerExtra, variant = 'private' }: AppShellProps) {
  const showSidebar = columns === 2 && sidebar;
  return (
    <div className={styles.shell}>
      {variant === 'private' ? <PrivateHeader headerExtra={headerExtra} /> : <PublicHeader />}
      <div className={[styles.body, showSidebar ? styles.twoColumns : ''].join(' ')}>
        <main className={styles.main} aria-label={label}>
          {children}
        </main>
        {showSidebar ? <aside className={styles.sidebar}>{sidebar}</aside> : null}
      </div>
      <Footer />
    </div>
  );
}
