import { AppShell } from '../../components/AppShell';
import styles from './SavedMixes.module.css';
import { SavedMixList } from './SavedMixList';

/** `/saved-mix`: the member's saved mixes (docs/library.md#saved-mixes). */
export function SavedMixesPage() {
  return (
    <AppShell label="Saved mixes" columns={1}>
      <h1 className={styles.heading}>Saved mixes</h1>
      <SavedMixList />
    </AppShell>
  );
}
