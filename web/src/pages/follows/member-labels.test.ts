import { USER_TYPE_CODES } from '@mixcrate/api/domain';
import { describe, expect, it } from 'vitest';
import type { UserType } from '../../gql/graphql';
import { userTypeLabel } from '../../lib/format';
import { followsTypeLabel } from './member-labels';

/** GraphQL spells the SPEC codes in capitals with underscores (dj-creator = DJ_CREATOR). */
const ALL_TYPES = USER_TYPE_CODES.map((code) => code.toUpperCase().replace('-', '_') as UserType);

describe('user type labels (SPEC §3)', () => {
  it('labels every type as the SPEC does', () => {
    expect(ALL_TYPES.map(userTypeLabel)).toEqual([
      'Listener',
      'DJ',
      'DJ Creator',
      'Creator',
      'Artist',
      'Engineer',
      'Agent',
      'Retailer',
      'Label',
      'Promoter',
      'Distributor',
      'Other',
    ]);
  });

  it("shows dj-creator as 'DJ / Creator' on the follows screen and every other type as usual", () => {
    expect(followsTypeLabel('DJ_CREATOR')).toBe('DJ / Creator');
    for (const type of ALL_TYPES.filter((value) => value !== 'DJ_CREATOR')) expect(followsTypeLabel(type)).toBe(userTypeLabel(type));
  });
});
