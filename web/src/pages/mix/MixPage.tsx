import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { useQuery } from '@apollo/client/react';
import { useParams } from 'react-router';
import { AppShell } from '../../components/AppShell';
import buttons from '../../components/Button.module.css';
import { MixPageDocument } from '../../gql/graphql';
import { serverStatus } from '../../lib/server-message';
import styles from './MixPage.module.css';
import { MixLoading, MixNotFound, MixUnavailable, MixView } from './MixView';
import { SavedTracksSidebar } from './SavedTracksSidebar';

/** `/mix/{id}` (private): the mix card, its tracklist, and the saved-tracks sidebar on wide screens (docs/mix-page.md#mix-card). */
export function MixPage() {
  const { id = '' } = useParams();
  const { data, loading, error, refetch } = useQuery(MixPageDocument, { variables: { id } });
  const mix = data?.mix;

  return (
    <AppShell label={mix?.title ?? 'Mix'} sidebar={<SavedTracksSidebar />}>
      {mix ? (
        <MixView mix={mix} shared={false} />
      ) : loading ? (
        <MixLoading />
      ) : serverStatus(error) === 451 ? (
        <MixUnavailable backHome />
      ) : error && !CombinedGraphQLErrors.is(error) ? (
        <div className={styles.notFound} role="alert">
          <p>This mix could not be loaded.</p>
          <button type="button" className={buttons.secondary} onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <MixNotFound backHome />
      )}
    </AppShell>
  );
}
