import { useQuery } from '@apollo/client/react';
import { SEARCH_QUERY_MAX } from '@mixcrate/api/rules';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useAuth } from '../../auth/auth';
import { SearchSuggestionsDocument, type SearchSuggestionsQuery } from '../../gql/graphql';
import { type ComboboxState, comboboxKey, slashFocuses } from './combobox';
import styles from './SearchBox.module.css';

/** How long typing pauses before suggestions are asked for. */
const SETTLE_MS = 150;

interface Option {
  id: string;
  group: 'Mixes' | 'Members' | 'Tracks';
  label: string;
  detail: string;
  to: string;
}

type Found = SearchSuggestionsQuery['searchSuggestions'];

/** The suggestions as options, in their groups' order; where each leads depends on the sign-in (shared pages when signed out). */
function optionsOf(found: Found | undefined, signedIn: boolean): Option[] {
  if (!found) return [];
  return [
    ...found.mixes.map((mix) => ({
      id: mix.id,
      group: 'Mixes' as const,
      label: mix.title,
      detail: `by ${mix.owner.displayName || mix.owner.userName || 'Unknown DJ'}`,
      to: signedIn ? `/mix/${mix.id}` : `/shared-mix/${mix.id}`,
    })),
    ...found.members.map((member) => ({
      id: member.id,
      group: 'Members' as const,
      label: member.displayName || member.userName || 'Member',
      detail: member.userName ? `@${member.userName}` : '',
      to: signedIn ? `/profile/${member.userName}` : `/shared-profile/${member.userName}`,
    })),
    ...found.tracks.map((track) => ({
      id: track.id,
      group: 'Tracks' as const,
      label: track.title,
      detail: track.creators.map((creator) => creator.name).join(', '),
      to: `/track/${track.id}`,
    })),
  ];
}

/** The header's search field (docs/search.md#the-search-box): an ARIA 1.2 combobox with grouped suggestions. */
export function SearchBox() {
  const [params] = useSearchParams();
  // On the results page the field shows what was searched for.
  const initial = useLocation().pathname === '/search' ? (params.get('q') ?? '') : '';
  const [text, setText] = useState(initial);
  const [settled, setSettled] = useState(initial.trim());
  const [state, setState] = useState<ComboboxState>({ open: false, active: -1 });
  const input = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const { token } = useAuth();
  const id = useId();
  const listId = `${id}-list`;

  useEffect(() => {
    const timer = setTimeout(() => setSettled(text.trim()), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || !slashFocuses(event.target)) return;
      event.preventDefault();
      input.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const { data, loading, error } = useQuery(SearchSuggestionsDocument, {
    variables: { query: settled },
    skip: settled === '' || settled.length > 100,
  });
  const options = useMemo(() => optionsOf(settled === '' ? undefined : data?.searchSuggestions, Boolean(token)), [data, settled, token]);
  const optionId = (index: number) => `${id}-option-${index}`;
  const showList = state.open && text.trim() !== '';
  const waiting = text.trim() !== settled || loading;

  const searchFor = () => navigate(`/search?q=${encodeURIComponent(text.trim())}`);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const result = comboboxKey(state, event.key, waiting ? 0 : options.length, text);
    if (!result.handled) return;
    event.preventDefault();
    setState(result.state);
    if (result.effect?.kind === 'pick') {
      const option = options[result.effect.index];
      if (option) navigate(option.to);
    } else if (result.effect?.kind === 'search') searchFor();
    else if (result.effect?.kind === 'clear') setText('');
  };

  let status: string;
  if (waiting) status = 'Searching…';
  else if (error) status = 'Suggestions could not be loaded. Press Enter to search.';
  else if (options.length === 0) status = `No matches for “${settled}”. Check the spelling, or try fewer words.`;
  else status = `${options.length} suggestion${options.length === 1 ? '' : 's'}: use the arrow keys, Enter to open.`;

  const groups = (['Mixes', 'Members', 'Tracks'] as const).filter((group) => options.some((option) => option.group === group));
  return (
    <search className={styles.box}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (text.trim()) searchFor();
        }}
      >
        <input
          ref={input}
          className={styles.input}
          type="text"
          role="combobox"
          aria-label="Search mixes, members and tracks"
          aria-autocomplete="list"
          aria-expanded={showList}
          aria-controls={listId}
          aria-activedescendant={showList && state.active >= 0 ? optionId(state.active) : undefined}
          placeholder="Search  /"
          autoComplete="off"
          spellCheck={false}
          maxLength={SEARCH_QUERY_MAX}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setState({ open: true, active: -1 });
          }}
          onFocus={() => setState((current) => ({ ...current, open: true }))}
          onBlur={() => setState({ open: false, active: -1 })}
          onKeyDown={onKeyDown}
        />
      </form>
      <div className={styles.popup} hidden={!showList}>
        <p className={styles.status} role="status">
          {showList ? status : ''}
        </p>
        <div id={listId} role="listbox" aria-label="Suggestions" className={styles.list}>
          {showList && !waiting
            ? groups.map((group) => (
                // biome-ignore lint/a11y/useSemanticElements: a group of a listbox's options (ARIA 1.2), not of form fields.
                <div key={group} role="group" aria-labelledby={`${id}-${group}`}>
                  <div id={`${id}-${group}`} role="presentation" className={styles.groupLabel}>
                    {group}
                  </div>
                  {options.map((option, index) =>
                    option.group === group ? (
                      // biome-ignore lint/a11y/useKeyWithClickEvents: keys stay on the combobox input, which points here through aria-activedescendant.
                      <div
                        key={`${option.group}-${option.id}`}
                        id={optionId(index)}
                        role="option"
                        tabIndex={-1}
                        aria-selected={index === state.active}
                        className={styles.option}
                        // Keeps the focus in the field (a click would blur it and close the list first).
                        onMouseDown={(event) => event.preventDefault()}
                        onClick={() => {
                          setState({ open: false, active: -1 });
                          navigate(option.to);
                        }}
                      >
                        <span className={styles.label}>{option.label}</span>
                        {option.detail ? <span className={styles.detail}>{option.detail}</span> : null}
                      </div>
                    ) : null,
                  )}
                </div>
              ))
            : null}
        </div>
      </div>
    </search>
  );
}
