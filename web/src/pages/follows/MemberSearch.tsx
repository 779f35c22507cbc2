import { useQuery } from '@apollo/client/react';
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Spinner } from '../../components/Spinner';
import { SearchMembersDocument } from '../../gql/graphql';
import styles from './Follows.module.css';

/** Typing pauses this long before a search goes out, so a word costs one request, not one per letter. */
export const SEARCH_SETTLE_MS = 200;
/** The dropdown shows at most 8 members (docs/profiles.md#member-search). */
export const MAX_RESULTS = 8;

/**
 * Member search (docs/profiles.md#member-search): fires whenever the typed text is non-empty; a dropdown of at most 8 ('No results' when
 * loaded and empty); a result opens /profile/{user_name}; clicking outside closes it and clears the input.
 * Keyboard: arrows move through the results, Enter opens the highlighted one, Escape closes.
 */
export function MemberSearch() {
  const [text, setText] = useState('');
  const [settledText, setSettledText] = useState('');
  const [active, setActive] = useState(-1);
  const navigate = useNavigate();
  const box = useRef<HTMLDivElement>(null);
  const id = useId();
  const listId = `${id}-results`;
  const typed = text.trim();
  const searched = settledText.trim();
  const { data, loading, error } = useQuery(SearchMembersDocument, { variables: { text: searched }, skip: !searched });
  const results = (data?.searchMembers ?? []).slice(0, MAX_RESULTS);
  const open = typed.length > 0;
  const settled = searched === typed && !loading;

  useEffect(() => {
    const timer = setTimeout(() => setSettledText(text), SEARCH_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const close = () => {
    setText('');
    setActive(-1);
  };

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (box.current && !box.current.contains(event.target as Node)) {
        setText('');
        setActive(-1);
      }
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const openProfile = (userName: string) => {
    close();
    navigate(`/profile/${userName}`);
  };

  return (
    <div className={styles.search} ref={box}>
      <label htmlFor={`${id}-input`} className={styles.visuallyHidden}>
        Search members by display name
      </label>
      <input
        id={`${id}-input`}
        className={styles.searchInput}
        type="search"
        placeholder="Display name"
        autoComplete="off"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setActive(-1);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && results.length > 0) {
            event.preventDefault();
            setActive((index) => (index + 1) % results.length);
          } else if (event.key === 'ArrowUp' && results.length > 0) {
            event.preventDefault();
            setActive((index) => (index <= 0 ? results.length - 1 : index - 1));
          } else if (event.key === 'Enter') {
            event.preventDefault();
            const chosen = results[active] ?? (results.length === 1 ? results[0] : undefined);
            if (chosen) openProfile(chosen.userName);
          } else if (event.key === 'Escape') {
            close();
          }
        }}
      />
      {open ? (
        <div className={styles.dropdown}>
          {!settled && results.length === 0 ? <Spinner size="small" label="Searching" /> : null}
          {settled && error ? (
            <p className={styles.noResults} role="alert">
              The search failed. Try again.
            </p>
          ) : null}
          {settled && !error && results.length === 0 ? (
            <p className={styles.noResults} role="status">
              No results
            </p>
          ) : null}
          <div id={listId} role="listbox" aria-label="Members found" className={styles.results}>
            {results.map((member, index) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: keys stay on the combobox input, which points here through aria-activedescendant.
              <div
                key={member.userName}
                id={`${listId}-${index}`}
                role="option"
                tabIndex={-1}
                aria-selected={index === active}
                className={index === active ? `${styles.result} ${styles.activeResult}` : styles.result}
                onPointerDown={(event) => event.preventDefault()}
                onClick={() => openProfile(member.userName)}
              >
                <span className={styles.resultName}>{member.displayName || member.userName}</span>
                <span className={styles.muted}>@{member.userName}</span>
              </div>
            ))}
          </div>
        </div>
      ) : null}
    </div>
  );
}
