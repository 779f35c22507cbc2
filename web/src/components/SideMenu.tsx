import { useMutation, useQuery } from '@apollo/client/react';
import { useEffect, useRef } from 'react';
import { NavLink } from 'react-router';
import { useSignOutHere } from '../auth/use-sign-out-here';
import { ModerationAccessDocument, SignOutDocument } from '../gql/graphql';
import { CloseIcon } from './icons/Icons';
import styles from './SideMenu.module.css';

interface SideMenuProps {
  open: boolean;
  onClose(): void;
  userName: string | null;
}

/**
 * Side menu, opened by the logo mark (docs/navigation.md#side-menu): Home, Profile, Follows and Saved mixes (those two on narrow screens,
 * where their sidebars are hidden), Upload, Earnings, Moderation (moderators and operators),
 * Reports and notices, Settings, Logout. A modal dialog: Escape or the backdrop closes it.
 */
export function SideMenu({ open, onClose, userName }: SideMenuProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [signOut, signingOut] = useMutation(SignOutDocument);
  const signOutHere = useSignOutHere();
  // Moderators and operators get the moderation page (docs/moderation.md#the-page); the server decides who they are.
  const access = useQuery(ModerationAccessDocument, { skip: !open });

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal?.();
    if (!open && element.open) element.close?.();
  }, [open]);

  async function logout() {
    // The server ends the session first, so the token stops working everywhere it was copied; signing out here goes
    // ahead whether or not it could be told (offline, or the session had already ended).
    await signOut().catch(() => undefined);
    onClose();
    signOutHere('/');
  }

  const item = ({ isActive }: { isActive: boolean }) => [styles.link, isActive ? styles.active : ''].join(' ');

  return (
    <dialog
      ref={dialog}
      className={styles.menu}
      aria-label="Menu"
      onClose={onClose}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <nav className={styles.panel}>
        <button type="button" className={styles.close} onClick={onClose} aria-label="Close menu">
          <CloseIcon />
        </button>
        <ul className={styles.list}>
          <li>
            <NavLink to="/home" className={item} onClick={onClose}>
              Home
            </NavLink>
          </li>
          {userName ? (
            <li>
              <NavLink to={`/profile/${userName}`} className={item} onClick={onClose}>
                Profile
              </NavLink>
            </li>
          ) : null}
          <li className={styles.narrowOnly}>
            <NavLink to="/follows" className={item} onClick={onClose}>
              Follows
            </NavLink>
          </li>
          <li className={styles.narrowOnly}>
            <NavLink to="/saved-mix" className={item} onClick={onClose}>
              Saved mixes
            </NavLink>
          </li>
          <li>
            <NavLink to="/upload" end={false} className={item} onClick={onClose}>
              Upload
            </NavLink>
          </li>
          <li>
            <NavLink to="/earnings" className={item} onClick={onClose}>
              Earnings
            </NavLink>
          </li>
          {access.data?.canModerate ? (
            <li>
              <NavLink to="/moderation" className={item} onClick={onClose}>
                Moderation
              </NavLink>
            </li>
          ) : null}
          <li>
            <NavLink to="/reports" className={item} onClick={onClose}>
              Reports and notices
            </NavLink>
          </li>
          <li>
            <NavLink to="/settings" className={item} onClick={onClose}>
              Settings
            </NavLink>
          </li>
          <li>
            <button
              type="button"
              className={styles.link}
              onClick={logout}
              disabled={signingOut.loading}
              aria-busy={signingOut.loading || undefined}
            >
              {signingOut.loading ? 'Logging out…' : 'Logout'}
            </button>
          </li>
        </ul>
      </nav>
    </dialog>
  );
}
