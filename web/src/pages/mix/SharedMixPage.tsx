import { useQuery } from '@apollo/client/react';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { AppShell } from '../../components/AppShell';
import { MixPageDocument } from '../../gql/graphql';
import { serverStatus } from '../../lib/server-message';
import { readStored, writeStored } from '../../lib/storage';
import { usePlayerMode } from '../../player/PlayerProvider';
import { MixLoading, MixNotFound, MixUnavailable, MixView, type PageMix } from './MixView';

/** Local-storage key: the last shared mix, the page's fallback when the request fails (docs/navigation.md#stored-in-the-browser). */
export const PUBLIC_MIX_KEY = 'public_mix';

function storedPublicMix(id: string): PageMix | null {
  try {
    const stored = JSON.parse(readStored(PUBLIC_MIX_KEY) ?? 'null') as PageMix | null;
    return stored?.id === id ? stored : null;
  } catch {
    return null;
  }
}

/** `/shared-mix/{id}` for people not signed in: no sidebar, no save control, no distance, no saved-track buttons (docs/sharing-and-embed.md#shared-mix-page). */
export function SharedMixPage() {
  usePlayerMode('public');
  const { id = '' } = useParams();
  const { data, loading, error } = useQuery(MixPageDocument, { variables: { id } });
  const fetched = data?.mix;
  // When the request fails, the page falls back to the mix stored under public_mix (docs/sharing-and-embed.md#shared-mix-page).
  const unavailable = serverStatus(error) === 451;
  // A mix taken down is never shown from the stored copy either.
  const mix = fetched ?? (error && !unavailable ? storedPublicMix(id) : null);

  useEffect(() => {
    if (fetched) writeStored(PUBLIC_MIX_KEY, JSON.stringify(fetched));
  }, [fetched]);

  return (
    <AppShell variant="public" label={mix?.title ?? 'Shared mix'}>
      {mix ? (
        <MixView mix={mix} shared />
      ) : loading ? (
        <MixLoading />
      ) : unavailable ? (
        <MixUnavailable backHome={false} />
      ) : (
        <MixNotFound backHome={false} />
      )}
    </AppShell>
  );
}
