import type { UserType } from '../../gql/graphql';
import { userTypeLabel } from '../../lib/format';

/** SPEC §3: the follows screen shows dj-creator as 'DJ / Creator'; everything else as its usual label. */
export function followsTypeLabel(type: UserType): string {
  return type === 'DJ_CREATOR' ? 'DJ / Creator' : userTypeLabel(type);
}
