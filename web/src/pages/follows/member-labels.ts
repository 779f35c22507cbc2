import type { UserType } from '../../gql/graphql';
import { userTypeLabel } from '../../lib/format';

/**
 * The follows screen has a label list of its own (docs/follows.md#the-follows-screen). It shows dj-creator as 'DJ / Creator' and has no
 * distributor, so a distributor shows there as any type missing from a list does: as a Listener.
 */
export function followsTypeLabel(type: UserType): string {
  if (type === 'DJ_CREATOR') return 'DJ / Creator';
  if (type === 'DISTRIBUTOR') return userTypeLabel('LISTENER');
  return userTypeLabel(type);
}
