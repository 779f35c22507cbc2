import { useQuery, useSubscription } from '@apollo/client/react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { AppShell } from '../../components/AppShell';
import buttons from '../../components/Button.module.css';
import { ClaimForm, MyClaims } from '../../components/claims/ClaimForm';
import { Spinner } from '../../components/Spinner';
import { ReportButton } from '../../components/trust/ReportDialog';
import { ProfileDocument, ProfileFollowCountsDocument } from '../../gql/graphql';
import { useWindowWidth, WIDE_SCREEN } from '../../lib/use-window-width';
import { FollowButton } from '../follows/FollowButton';
import { FollowTabs } from '../follows/FollowTabs';
import { MemberSearch } from '../follows/MemberSearch';
import styles from './Profile.module.css';
import { ProfileEditor } from './ProfileEditor';
import { MemberNotFound, ProfileLoadFailed } from './ProfileStates';
import { ProfileView } from './ProfileView';

function PencilIcon() {
  return (
    <svg width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true">
      <path d="M4 20h4L19 9l-4-4L4 16v4Z" strokeLinejoin="round" />
      <path d="m13.5 6.5 4 4" />
    </svg>
  );
}

/** The viewer's own Following and Followers (the API serves no one else's), and for the owner a member search. */
function FollowsSidebar({ isOwner }: { isOwner: boolean }) {
  return (
    <section aria-label="Your follows" className={styles.sidebar}>
      {isOwner ? <MemberSearch /> : null}
      <FollowTabs compact />
    </section>
  );
}

function Profile({ userName }: { userName: string }) {
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const focusEditButton = useRef(false);
  const wide = useWindowWidth() >= WIDE_SCREEN;
  const { data, loading, error, refetch } = useQuery(ProfileDocument, { variables: { userName } });
  // Follower and following counts live: the pushed member lands on the same cache entry (by id) the page shows.
  useSubscription(ProfileFollowCountsDocument, { variables: { userName } });
  const user = data?.user;
  const isOwner = Boolean(user && data?.me?.id === user.id);

  // Back from the editor, the keyboard continues where it left: on the edit button.
  useEffect(() => {
    if (editing || !focusEditButton.current) return;
    focusEditButton.current = false;
    editButton.current?.focus();
  }, [editing]);

  let content: ReactNode;
  if (!user) {
    if (loading) content = <Spinner label="Loading profile" />;
    else if (error) content = <ProfileLoadFailed onRetry={() => void refetch().catch(() => undefined)} />;
    else content = <MemberNotFound homePath="/home" />;
  } else if (editing && isOwner) {
    content = (
      <ProfileEditor
        user={user}
        onDone={() => {
          focusEditButton.current = true;
          setEditing(false);
        }}
      />
    );
  } else {
    const name = user.displayName || user.userName || userName;
    content = (
      <ProfileView
        user={user}
        shared={false}
        showDistance={!isOwner}
        actions={
          isOwner ? (
            <>
              <button ref={editButton} type="button" className={buttons.secondary} onClick={() => setEditing(true)}>
                <PencilIcon />
                Edit profile
              </button>
              <MyClaims />
              <ClaimForm />
            </>
          ) : (
            <>
              <FollowButton userId={user.id} following={Boolean(user.isFollowing)} name={name} />
              <button type="button" className={buttons.secondary} disabled title="Messages are not available yet">
                Message
              </button>
              <ReportButton targetKind="MEMBER" targetId={user.id} targetName={name} />
            </>
          )
        }
      />
    );
  }

  return (
    <AppShell label={user?.displayName || userName} sidebar={wide ? <FollowsSidebar isOwner={isOwner} /> : undefined}>
      {content}
    </AppShell>
  );
}

/** `/profile/{user_name}`: a member's profile; the owner edits theirs, others follow them (docs/profiles.md#profile-page). */
export function ProfilePage() {
  const { userName = '' } = useParams();
  // A new member in the address starts afresh: no editor left open from the previous profile.
  return <Profile key={userName.toLowerCase()} userName={userName} />;
}
