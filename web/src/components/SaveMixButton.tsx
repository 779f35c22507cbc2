import { useMutation } from '@apollo/client/react';
import { RemoveSavedMixDocument, SavedMixesDocument, SaveMixDocument } from '../gql/graphql';
import { HeartIcon } from './icons/Icons';
import styles from './MixCard.module.css';
import { Spinner } from './Spinner';

/**
 * Save toggle (docs/library.md#saved-mixes): a spinner while pending, a filled icon when saved (click removes), an outline when not (click
 * adds); the saved list reloads afterwards.
 */
export function SaveMixButton({ mixId, saved, title }: { mixId: string; saved: boolean; title: string }) {
  const refetchQueries = [{ query: SavedMixesDocument }];
  const [save, saving] = useMutation(SaveMixDocument, { refetchQueries });
  const [remove, removing] = useMutation(RemoveSavedMixDocument, {
    refetchQueries,
    update(cache) {
      cache.modify({ id: cache.identify({ __typename: 'Mix', id: mixId }), fields: { savedByMe: () => false } });
    },
  });
  const pending = saving.loading || removing.loading;
  const failed = saving.error ?? removing.error;

  return (
    <span className={styles.saveWrap}>
      <button
        type="button"
        className={[styles.iconButton, saved ? styles.saved : ''].join(' ')}
        aria-pressed={saved}
        aria-label={saved ? `Remove ${title} from saved mixes` : `Save ${title}`}
        disabled={pending}
        onClick={() => {
          const variables = { mixId };
          (saved ? remove({ variables }) : save({ variables })).catch(() => undefined);
        }}
      >
        {pending ? <Spinner size="small" label="Saving" /> : <HeartIcon filled={saved} width={20} height={20} />}
      </button>
      {failed ? (
        <span className={styles.inlineError} role="alert">
          {failed.message}
        </span>
      ) : null}
    </span>
  );
}
