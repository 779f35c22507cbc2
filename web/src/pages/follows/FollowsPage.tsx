import { AppShell } from '../../components/AppShell';
import styles from './Follows.module.css';
import { FollowTabs } from './FollowTabs';
import { MemberSearch } from './MemberSearch';

/** `/follows`: the member's Following and Followers, and a member search (docs/follows.md#the-follows-screen). */
export function FollowsPage() {
  return (
    <AppShell label="Follows" columns={1}>
      <div className={styles.page}>
        <div className={styles.pageHeader}>
          <h1 className={styles.heading}>Follows</h1>
          <MemberSearch />
        </div>
        <FollowTabs />
      </div>
    </AppShell>
  );
}
