import { useQuery } from '@apollo/client/react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import buttons from '../../components/Button.module.css';
import { Spinner } from '../../components/Spinner';
import { TileCover } from '../../components/TileCover';
import { ForYouDocument, type ForYouQuery } from '../../gql/graphql';
import { formatDistance, truncate } from '../../lib/format';
import styles from './ForYouRow.module.css';

const TILE_CLASSES = { wrap: styles.coverWrap, cover: styles.cover, play: styles.play };

/** The row asks for 12 cards: two screens of tiles on a phone, a full row and a half on a wide screen. */
export const FOR_YOU_SIZE = 12;
const TITLE_CHARS = 48;

type Item = ForYouQuery['forYou'][number];

function ForYouTile({ item }: { item: Item }) {
  const { mix } = item;
  const dj = mix.owner.displayName || mix.owner.userName || 'Unknown DJ';
  const distance = formatDistance(mix.distanceKm);
  return (
    <li className={styles.tile}>
      <TileCover mix={mix} classes={TILE_CLASSES} iconSize={20} />
      <Link to={`/mix/${mix.id}`} className={styles.title} title={mix.title}>
        {truncate(mix.title, TITLE_CHARS)}
      </Link>
      <p className={styles.meta}>
        {dj}
        {distance ? ` · ${distance}` : ''}
      </p>
      <p className={styles.reason} data-reason={item.reason}>
        {item.reasonText}
      </p>
    </li>
  );
}

/**
 * "For you" above the carousel (docs/home-feed.md#for-you): each card with why it is there. Loading, failed and empty
 * states say so; the cards are a list of links and buttons, reached with Tab like any other.
 */
export function ForYouRow() {
  const { data, loading, error, refetch } = useQuery(ForYouDocument, {
    variables: { first: FOR_YOU_SIZE },
    fetchPolicy: 'cache-and-network',
  });
  const items = data?.forYou ?? [];
  let body: ReactNode;
  if (!data && loading) body = <Spinner label="Loading recommendations" size="small" />;
  else if (!data && error)
    body = (
      <div className={styles.state} role="alert">
        <p>Recommendations could not be loaded.</p>
        <button type="button" className={buttons.secondary} onClick={() => void refetch()}>
          Try again
        </button>
      </div>
    );
  else if (items.length === 0)
    body = <p className={styles.state}>Nothing to recommend yet. Save or play a mix to the end, or follow a DJ, and this row fills up.</p>;
  else
    body = (
      <ul className={styles.row} aria-labelledby="for-you-title">
        {items.map((item) => (
          <ForYouTile key={item.mix.id} item={item} />
        ))}
      </ul>
    );
  return (
    <section aria-labelledby="for-you-title" className={styles.section}>
      <h2 id="for-you-title" className={styles.heading}>
        For you
      </h2>
      {body}
    </section>
  );
}
