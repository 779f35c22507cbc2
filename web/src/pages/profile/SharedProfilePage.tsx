import { useQuery } from '@apollo/client/react';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { AppShell } from '../../components/AppShell';
import { Spinner } from '../../components/Spinner';
import { ProfileDocument } from '../../gql/graphql';
import { usePlayerMode } from '../../player/PlayerProvider';
import { MemberNotFound, ProfileLoadFailed } from './ProfileStates';
import { ProfileView } from './ProfileView';

/** `/shared-profile/{user_name}` for people not signed in: the profile without Message, follow or edit (docs/profiles.md#shared-profile). */
export function SharedProfilePage() {
  usePlayerMode('public');
  const { userName = '' } = useParams();
  const { data, loading, error, refetch } = useQuery(ProfileDocument, { variables: { userName } });
  const user = data?.user;
  let content: ReactNode;
  if (user) content = <ProfileView user={user} shared showDistance={false} />;
  else if (loading) content = <Spinner label="Loading profile" />;
  else if (error) content = <ProfileLoadFailed onRetry={() => void refetch().catch(() => undefined)} />;
  else content = <MemberNotFound homePath="/" />;
  return (
    <AppShell variant="public" label={user?.displayName || userName}>
      {content}
    </AppShell>
  );
}
