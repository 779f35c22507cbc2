import { useEffect, useRef } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { useAuth } from '../auth/auth';
import { usePlayer } from '../player/PlayerProvider';
import { CloseIcon } from './icons/Icons';
import styles from './SideMenu.module.css';

interface SideMenuProps {
  open: boolean;
  onClose(): void;
  userName: string | null;
}

/**
 * SPEC §2 side menu, opened by the logo mark: Home, Profile, Follows and Saved mixes (those two on narrow screens,
 * where their sidebars are hidden), Upload, Settings, Logout. A modal dialog: Escape or the backdrop closes it.
 */
export function SideMenu({ open, onClose, userName }: SideMenuProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const auth = useAuth();
  const player = usePlayer();
  const navigate = useNavigate();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal?.();
    if (!open && element.open) element.close?.();
  }, [open]);

  function logout() {
    // SPEC §2: logout clears all local storage and every client state group.
    player.pause();
    try {
      localStorage.clear();
    } catch {
      // Storage unavailable: nothing stored to clear.
    }
    // The GraphQL boundary drops what the cache holds for this session when the token goes.
    auth.signOut();
    onClose();
    navigate('/');
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
            <NavLink to="/settings" className={item} onClick={onClose}>
              Settings
            </NavLink>
          </li>
          <li>
            <button type="button" className={styles.link} onClick={logout}>
              Logout
            </button>
          </li>
        </ul>
      </nav>
    </dialog>
  );
}
