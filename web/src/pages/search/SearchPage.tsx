import { useQuery } from '@apollo/client/react';
import { GENRE_CODES, GENRES } from '@mixcrate/api/domain';
import { type ReactNode, useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useAuth } from '../../auth/auth';
import { AppShell } from '../../components/AppShell';
import buttons from '../../components/Button.module.css';
import { Spinner } from '../../components/Spinner';
import {
  type Genre,
  type MixLength,
  type SearchPageFieldsFragment,
  SearchResultsDocument,
  SearchResultsOfTypeDocument,
  type SearchType,
  ViewerDocument,
} from '../../gql/graphql';
import { genreLabel } from '../../lib/format';
import styles from './SearchPage.module.css';

const PAGE = 20;
const TABS = [
  { key: 'all', label: 'All', type: null },
  { key: 'mixes', label: 'Mixes', type: 'MIX' },
  { key: 'members', label: 'Members', type: 'MEMBER' },
  { key: 'tracks', label: 'Tracks', type: 'TRACK' },
] as const satisfies readonly { key: string; label: string; type: SearchType | null }[];
const LENGTHS = [
  ['', 'Any length'],
  ['short', 'Under 30 min'],
  ['medium', '30 to 90 min'],
  ['long', 'Over 90 min'],
] as const;
const DISTANCES = [
  ['', 'Any distance'],
  ['10', 'Within 10 km'],
  ['50', 'Within 50 km'],
  ['250', 'Within 250 km'],
  ['1000', 'Within 1,000 km'],
] as const;

type Edge = SearchPageFieldsFragment['edges'][number];

function Result({ edge, signedIn }: { edge: Edge; signedIn: boolean }) {
  const node = edge.node;
  if (node.__typename === 'Mix') {
    const dj = node.owner.displayName || node.owner.userName || 'Unknown DJ';
    const minutes = node.durationSeconds ? `${Math.round(node.durationSeconds / 60)} min` : null;
    return (
      <li className={styles.row}>
        <img className={styles.cover} src={node.coverUrl} alt="" width={56} height={56} loading="lazy" />
        <span className={styles.text}>
          <Link className={styles.title} to={signedIn ? `/mix/${node.id}` : `/shared-mix/${node.id}`}>
            {node.title}
          </Link>
          <span className={styles.muted}>
            Mix by {dj} · {genreLabel(node.genre)}
            {minutes ? ` · ${minutes}` : ''}
            {edge.viaTrackId ? ' · plays a matching track' : ''}
          </span>
        </span>
      </li>
    );
  }
  if (node.__typename === 'User') {
    return (
      <li className={styles.row}>
        {node.imageUrl ? (
          <img className={styles.avatar} src={node.imageUrl} alt="" width={56} height={56} loading="lazy" />
        ) : (
          <span className={styles.avatar} aria-hidden="true">
            {(node.displayName || node.userName || '?').slice(0, 1).toUpperCase()}
          </span>
        )}
        <span className={styles.text}>
          <Link className={styles.title} to={signedIn ? `/profile/${node.userName}` : `/shared-profile/${node.userName}`}>
            {node.displayName || node.userName}
          </Link>
          <span className={styles.muted}>
            Member · @{node.userName} · {node.userTypeLabel}
          </span>
        </span>
      </li>
    );
  }
  if (node.__typename === 'Track') {
    return (
      <li className={styles.row}>
        <span className={styles.cover} aria-hidden="true">
          ♪
        </span>
        <span className={styles.text}>
          <Link className={styles.title} to={`/track/${node.id}`}>
            {node.title}
          </Link>
          <span className={styles.muted}>
            Track · {node.creators.map((creator) => creator.name).join(', ')}
            {node.label ? ` · ${node.label.name}` : ''}
          </span>
        </span>
      </li>
    );
  }
  return null;
}

/** The results page (docs/search.md#the-results-page): tabs by kind, the mixes' filters, and paging. */
export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const { token } = useAuth();
  const signedIn = Boolean(token);
  const viewer = useQuery(ViewerDocument, { skip: !signedIn });
  const hasPlace = Boolean(viewer.data?.me?.location);
  const q = (params.get('q') ?? '').trim();
  const tab = TABS.find((entry) => entry.key === params.get('tab')) ?? TABS[0];
  const genre = params.get('genre') ?? '';
  const length = params.get('length') ?? '';
  const within = hasPlace ? (params.get('within') ?? '') : '';
  const ids = useId();
  const showsMixes = tab.key === 'all' || tab.key === 'mixes';
  const filters = {
    query: q,
    first: PAGE,
    genre: showsMixes && genre ? (genre.toUpperCase() as Genre) : null,
    length: showsMixes && length ? (length.toUpperCase() as MixLength) : null,
    withinKm: showsMixes && within ? Number(within) : null,
  };
  const skip = q === '' || q.length > 100;
  // Two documents: the All tab names no kind (a list of kinds would cost per kind, see docs/search.md#calls).
  const all = useQuery(SearchResultsDocument, { variables: filters, skip: skip || tab.type !== null, notifyOnNetworkStatusChange: true });
  const ofType = useQuery(SearchResultsOfTypeDocument, {
    variables: { ...filters, type: tab.type ?? 'MIX' },
    skip: skip || tab.type === null,
    notifyOnNetworkStatusChange: true,
  });
  const { loading, error } = tab.type === null ? all : ofType;
  const page: SearchPageFieldsFragment | undefined = tab.type === null ? all.data?.search : ofType.data?.search;
  const refetch = () => (tab.type === null ? all.refetch() : ofType.refetch());
  // The next page's results join the ones shown.
  const joined = <T extends { search: SearchPageFieldsFragment }>(shown: T, more: T): T => ({
    ...more,
    search: { ...more.search, edges: [...shown.search.edges, ...more.search.edges] },
  });
  const fetchMore = (after: string | null | undefined) =>
    tab.type === null
      ? all.fetchMore({
          variables: { after },
          updateQuery: (shown, { fetchMoreResult }) => joined(shown as typeof fetchMoreResult, fetchMoreResult),
        })
      : ofType.fetchMore({
          variables: { after },
          updateQuery: (shown, { fetchMoreResult }) => joined(shown as typeof fetchMoreResult, fetchMoreResult),
        });
  const set = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };

  let body: ReactNode = null;
  if (q === '') body = <p className={styles.muted}>Type in the search field above: a mix, a DJ, a member, a track or an artist.</p>;
  else if (!page && loading) body = <Spinner label="Searching" />;
  else if (!page && error)
    body = (
      <p role="alert">
        {error.message.includes('q must') ? error.message : 'The search could not be run.'}{' '}
        <button type="button" className={buttons.secondary} onClick={() => void refetch().catch(() => undefined)}>
          Try again
        </button>
      </p>
    );
  else if (page && page.edges.length === 0)
    body = (
      <p className={styles.empty}>
        Nothing matches “{q}”{tab.key === 'all' ? '' : ` in ${tab.label.toLowerCase()}`}. Check the spelling, try fewer words
        {showsMixes && (genre || length || within) ? ', or clear the filters' : ''}.
      </p>
    );
  else if (page)
    body = (
      <>
        <p className={styles.muted} aria-live="polite">
          {page.totalCount} result{page.totalCount === 1 ? '' : 's'}
        </p>
        <ul className={styles.results} aria-label="Results">
          {page.edges.map((edge) => (
            <Result key={`${edge.node.__typename}-${'id' in edge.node ? edge.node.id : edge.cursor}`} edge={edge} signedIn={signedIn} />
          ))}
        </ul>
        {page.pageInfo.hasNextPage ? (
          <button
            type="button"
            className={buttons.secondary}
            disabled={loading}
            onClick={() => void fetchMore(page.pageInfo.endCursor).catch(() => undefined)}
          >
            {loading ? 'Loading…' : 'Show more'}
          </button>
        ) : null}
      </>
    );

  return (
    <AppShell variant={signedIn ? 'private' : 'public'} label="Search" columns={1}>
      <div className={styles.page}>
        <h1 className={styles.heading}>{q ? `Results for “${q}”` : 'Search'}</h1>
        <nav aria-label="What to show" className={styles.tabs}>
          {TABS.map((entry) => {
            const next = new URLSearchParams(params);
            if (entry.key === 'all') next.delete('tab');
            else next.set('tab', entry.key);
            return (
              <Link key={entry.key} to={`/search?${next}`} replace aria-current={entry === tab ? 'page' : undefined} className={styles.tab}>
                {entry.label}
              </Link>
            );
          })}
        </nav>
        {showsMixes ? (
          <fieldset className={styles.filters}>
            <legend className={styles.legend}>Filter mixes</legend>
            <label htmlFor={`${ids}-genre`}>Genre</label>
            <select id={`${ids}-genre`} value={genre} onChange={(event) => set('genre', event.target.value)}>
              <option value="">All genres</option>
              {GENRE_CODES.map((code) => (
                <option key={code} value={code}>
                  {GENRES[code]}
                </option>
              ))}
            </select>
            <label htmlFor={`${ids}-length`}>Length</label>
            <select id={`${ids}-length`} value={length} onChange={(event) => set('length', event.target.value)}>
              {LENGTHS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
            {hasPlace ? (
              <>
                <label htmlFor={`${ids}-within`}>Distance from me</label>
                <select id={`${ids}-within`} value={within} onChange={(event) => set('within', event.target.value)}>
                  {DISTANCES.map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              </>
            ) : (
              <span className={styles.muted}>
                {signedIn ? 'Add your location in Settings to filter by distance.' : 'Sign in to filter by distance.'}
              </span>
            )}
          </fieldset>
        ) : null}
        {body}
      </div>
    </AppShell>
  );
}
