import { useQuery } from '@apollo/client/react';
import { type KeyboardEvent, useId, useRef, useState } from 'react';
import buttons from '../../components/Button.module.css';
import { Spinner } from '../../components/Spinner';
import { FollowersDocument, FollowingDocument } from '../../gql/graphql';
import styles from './Follows.module.css';
import { type MemberEdge, MemberList } from './MemberList';

/** Members per page of a follow list. */
export const FOLLOW_PAGE_SIZE = 20;

type Tab = 'following' | 'followers';
const TABS: { id: Tab; label: string; empty: string }[] = [
  { id: 'following', label: 'Following', empty: 'You are not following anyone yet.' },
  { id: 'followers', label: 'Followers', empty: 'Nobody follows you yet.' },
];

interface FollowList {
  edges?: readonly MemberEdge[];
  totalCount?: number;
  hasNextPage: boolean;
  loading: boolean;
  failed: boolean;
  retry(): void;
  loadMore(): void;
}

/** The viewer's own lists (the API serves no one else's), both loaded at once so each tab shows its count. */
function useFollowLists(): Record<Tab, FollowList> {
  const variables = { first: FOLLOW_PAGE_SIZE };
  const following = useQuery(FollowingDocument, { variables, notifyOnNetworkStatusChange: true });
  const followers = useQuery(FollowersDocument, { variables, notifyOnNetworkStatusChange: true });
  const followingPage = following.data?.following;
  const followersPage = followers.data?.followers;
  return {
    following: {
      edges: followingPage?.edges,
      totalCount: followingPage?.totalCount,
      hasNextPage: followingPage?.pageInfo.hasNextPage ?? false,
      loading: following.loading,
      failed: Boolean(following.error),
      retry: () => void following.refetch().catch(() => undefined),
      loadMore: () =>
        void following
          .fetchMore({
            variables: { after: followingPage?.pageInfo.endCursor },
            updateQuery: (previous, { fetchMoreResult }) => ({
              following: { ...fetchMoreResult.following, edges: [...previous.following.edges, ...fetchMoreResult.following.edges] },
            }),
          })
          .catch(() => undefined),
    },
    followers: {
      edges: followersPage?.edges,
      totalCount: followersPage?.totalCount,
      hasNextPage: followersPage?.pageInfo.hasNextPage ?? false,
      loading: followers.loading,
      failed: Boolean(followers.error),
      retry: () => void followers.refetch().catch(() => undefined),
      loadMore: () =>
        void followers
          .fetchMore({
            variables: { after: followersPage?.pageInfo.endCursor },
            updateQuery: (previous, { fetchMoreResult }) => ({
              followers: { ...fetchMoreResult.followers, edges: [...previous.followers.edges, ...fetchMoreResult.followers.edges] },
            }),
          })
          .catch(() => undefined),
    },
  };
}

function FollowListPanel({ list, label, empty, compact }: { list: FollowList; label: string; empty: string; compact: boolean }) {
  if (!list.edges) {
    if (list.loading) return <Spinner label={`Loading ${label.toLowerCase()}`} />;
    return (
      <p className={styles.error} role="alert">
        This list could not be loaded.{' '}
        <button type="button" className={styles.linkButton} onClick={list.retry}>
          Try again
        </button>
      </p>
    );
  }
  if (list.edges.length === 0) return <p className={styles.muted}>{empty}</p>;
  return (
    <>
      <MemberList edges={list.edges} compact={compact} pageSize={FOLLOW_PAGE_SIZE} />
      {list.failed ? (
        <p className={styles.error} role="alert">
          More members could not be loaded.
        </p>
      ) : null}
      {list.hasNextPage ? (
        <button type="button" className={buttons.secondary} disabled={list.loading} onClick={list.loadMore}>
          {list.loading ? 'Loading…' : 'Load more'}
        </button>
      ) : null}
    </>
  );
}

/** Following (default) and Followers tabs with their counts; arrow keys, Home and End move between tabs (docs/follows.md#the-follows-screen). */
export function FollowTabs({ compact = false }: { compact?: boolean }) {
  const [tab, setTab] = useState<Tab>('following');
  const id = useId();
  const tabButtons = useRef<(HTMLButtonElement | null)[]>([]);
  const lists = useFollowLists();
  const active = TABS.find((item) => item.id === tab) ?? TABS[0];

  const select = (index: number) => {
    const target = TABS[index];
    if (!target) return;
    setTab(target.id);
    tabButtons.current[index]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const moves: Record<string, number> = {
      ArrowRight: (index + 1) % TABS.length,
      ArrowLeft: (index + TABS.length - 1) % TABS.length,
      Home: 0,
      End: TABS.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(next);
  };

  return (
    <div className={styles.tabsWrap}>
      <div role="tablist" aria-label="Follows" className={styles.tabs}>
        {TABS.map((item, index) => {
          const count = lists[item.id].totalCount;
          return (
            <button
              key={item.id}
              ref={(element) => {
                tabButtons.current[index] = element;
              }}
              type="button"
              role="tab"
              id={`${id}-${item.id}-tab`}
              aria-selected={tab === item.id}
              aria-controls={`${id}-panel`}
              tabIndex={tab === item.id ? 0 : -1}
              className={styles.tab}
              onClick={() => setTab(item.id)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              {item.label}
              {count === undefined ? null : <span className={styles.count}>{count}</span>}
            </button>
          );
        })}
      </div>
      {active ? (
        <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${active.id}-tab`} className={styles.panel}>
          <FollowListPanel key={active.id} list={lists[active.id]} label={active.label} empty={active.empty} compact={compact} />
        </div>
      ) : null}
    </div>
  );
}
