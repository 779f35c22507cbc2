import { useQuery } from '@apollo/client/react';
import { useCallback, useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { AppShell } from '../../components/AppShell';
import buttons from '../../components/Button.module.css';
import { ChevronIcon, FilterIcon } from '../../components/icons/Icons';
import { MixCard } from '../../components/MixCard';
import { MixGrid } from '../../components/MixGrid';
import { Spinner } from '../../components/Spinner';
import { FeedDocument, MixesByUserDocument } from '../../gql/graphql';
import { formatDistance, genreLabel } from '../../lib/format';
import { removeStored } from '../../lib/storage';
import { SavedMixList } from '../saved/SavedMixList';
import { FilterPanel } from './FilterPanel';
import { ForYouRow } from './ForYouRow';
import { DEFAULT_FILTER, type FeedFilter, readFilter, toGraphQLGenre, wrapIndex, writeFilter } from './feed-filter';
import styles from './HomePage.module.css';

/** 20 cards with their first tracks stay inside the API's query-cost limit. */
const PAGE_SIZE = 20;
/** Visiting home forgets an upload left half-way (its tracks, mix id and recognition entries) (docs/home-feed.md#the-carousel). */
const UPLOAD_KEYS = ['tracks', 'mix_id', 'recognition_status', 'recognition_response', 'recognition_compiled'];

function useFeed(filter: FeedFilter) {
  const variables = { genre: toGraphQLGenre(filter.genre), radiusKm: filter.radiusKm, first: PAGE_SIZE };
  const query = useQuery(FeedDocument, { variables, notifyOnNetworkStatusChange: true });
  const feed = query.data?.feed;
  const { fetchMore } = query;

  /** Loads pages until `index` is loaded (the carousel can wrap to the last mix). */
  const ensureLoaded = useCallback(
    async (index: number) => {
      let current = feed;
      while (current && index >= current.nodes.length && current.pageInfo.hasNextPage) {
        const result = await fetchMore({
          variables: { after: current.pageInfo.endCursor },
          updateQuery: (previous, { fetchMoreResult }) => ({
            feed: {
              ...fetchMoreResult.feed,
              nodes: [...previous.feed.nodes, ...fetchMoreResult.feed.nodes],
            },
          }),
        });
        const next = result.data?.feed;
        if (!next || next.nodes.length === 0) break;
        current = { ...next, nodes: [...current.nodes, ...next.nodes] };
      }
    },
    [feed, fetchMore],
  );
  return { ...query, feed, ensureLoaded };
}

function OtherMixes({ userName, excludeMixId, ownerName }: { userName: string; excludeMixId: string; ownerName: string }) {
  const { data, loading } = useQuery(MixesByUserDocument, { variables: { userName, excludeMixId, first: 12 } });
  const mixes = data?.mixesByUser.nodes ?? [];
  if (loading && mixes.length === 0) return <Spinner label="Loading more mixes" />;
  if (mixes.length === 0) return null;
  return (
    <section aria-labelledby="other-mixes" className={styles.other}>
      <h2 id="other-mixes" className={styles.sectionTitle}>
        More from {ownerName}
      </h2>
      <MixGrid mixes={mixes} label={`More mixes by ${ownerName}`} />
    </section>
  );
}

/** `/home`: the "For you" row, the carousel of mixes by genre and distance, the filter chip and panel, saved mixes, more by the DJ (docs/home-feed.md#the-carousel). */
export function HomePage() {
  const [params, setParams] = useSearchParams();
  const filter = readFilter(params);
  const [index, setIndex] = useState(0);
  const [direction, setDirection] = useState<'next' | 'previous'>('next');
  const [filterOpen, setFilterOpen] = useState(false);
  const panelId = useId();
  const { feed, loading, error, refetch, ensureLoaded } = useFeed(filter);
  const total = feed?.totalCount ?? 0;
  // A wide circle's total is counted up to a cap: the API says so, and the chip shows "10,000+".
  const totalLabel = `${total.toLocaleString('en')}${feed?.totalCountIsLowerBound ? '+' : ''}`;
  const mix = feed?.nodes[index];

  useEffect(() => {
    removeStored(...UPLOAD_KEYS);
  }, []);

  // Changes apply to the filter in the address bar, not to the one last rendered: a genre tag and a slider moved in
  // quick succession must both count, even while the first change is still rendering.
  const changeFilter = useCallback(
    (change: Partial<FeedFilter>) => {
      setIndex(0);
      setParams(writeFilter({ ...readFilter(new URLSearchParams(window.location.search)), ...change }), { replace: true });
    },
    [setParams],
  );

  async function move(step: 1 | -1) {
    if (total === 0) return;
    const target = wrapIndex(index + step, total);
    await ensureLoaded(target);
    setDirection(step === 1 ? 'next' : 'previous');
    setIndex(target);
  }

  const chip = (
    <button
      type="button"
      className={styles.chip}
      aria-expanded={filterOpen}
      aria-controls={panelId}
      onClick={() => setFilterOpen((open) => !open)}
    >
      <FilterIcon width={18} height={18} />
      <span>
        {genreLabel(toGraphQLGenre(filter.genre))} · {formatDistance(filter.radiusKm)} ·{' '}
        {total === 0 ? 0 : (index + 1).toLocaleString('en')}/{totalLabel}
      </span>
    </button>
  );

  const sidebar = (
    <section aria-labelledby="saved-mixes-title">
      <h2 id="saved-mixes-title" className={styles.sectionTitle}>
        Saved mixes
      </h2>
      <SavedMixList compact />
    </section>
  );

  return (
    <AppShell label="Home" headerExtra={chip} sidebar={sidebar}>
      <h1 className={styles.visuallyHidden}>Mixes</h1>
      <ForYouRow />
      {filterOpen ? <FilterPanel id={panelId} filter={filter} onChange={changeFilter} /> : null}

      {!feed && loading ? (
        <Spinner label="Loading mixes" />
      ) : !feed && error ? (
        <div className={styles.empty} role="alert">
          <p>Mixes could not be loaded.</p>
          <button type="button" className={buttons.secondary} onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      ) : total === 0 || !mix ? (
        <div className={styles.empty}>
          <p className={styles.emptyTitle}>No results - upload a mix?</p>
          <button type="button" className={buttons.secondary} onClick={() => changeFilter(DEFAULT_FILTER)}>
            Show every mix
          </button>
        </div>
      ) : (
        <>
          <section className={styles.carousel} aria-label="Mixes">
            <p className={styles.visuallyHidden} aria-live="polite">
              Mix {index + 1} of {feed?.totalCountIsLowerBound ? `at least ${totalLabel.slice(0, -1)}` : totalLabel}
            </p>
            <button type="button" className={styles.arrow} onClick={() => void move(-1)} aria-label="Previous mix">
              <ChevronIcon direction="left" />
            </button>
            <div key={mix.id} className={[styles.slide, direction === 'next' ? styles.fromRight : styles.fromLeft].join(' ')}>
              <MixCard mix={mix} preview />
            </div>
            <button type="button" className={styles.arrow} onClick={() => void move(1)} aria-label="Next mix">
              <ChevronIcon direction="right" />
            </button>
          </section>
          {mix.owner.userName ? (
            <OtherMixes userName={mix.owner.userName} excludeMixId={mix.id} ownerName={mix.owner.displayName || mix.owner.userName} />
          ) : null}
        </>
      )}
    </AppShell>
  );
}
