import { USER_TYPE_CODES } from '@mixcrate/api/domain';
import { describe, expect, it } from 'vitest';
import type { UserType } from '../../gql/graphql';
import { userTypeLabel } from '../../lib/format';
import { followsTypeLabel } from './member-labels';

/** GraphQL spells the REST codes in capitals with underscores (dj-creator = DJ_CREATOR). */
const ALL_TYPES = USER_TYPE_CODES.map((code) => code.toUpperCase().replace('-', '_') as UserType);

const labelsBy = (label: (type: UserType) => string) => Object.fromEntries(ALL_TYPES.map((type) => [type, label(type)]));

describe('user type labels (docs/rules.md#user-types)', () => {
  it('labels every type as documented, and an unknown value as Listener', () => {
    expect(labelsBy(userTypeLabel)).toEqual({
      LISTENER: 'Listener',
      DJ: 'DJ',
      DJ_CREATOR: 'DJ Creator',
      CREATOR: 'Creator',
      ARTIST: 'Artist',
      ENGINEER: 'Engineer',
      AGENT: 'Agent',
      RETAILER: 'Retailer',
      LABEL: 'Label',
      PROMOTER: 'Promoter',
      DISTRIBUTOR: 'Distributor',
      OTHER: 'Other',
    });
    expect(userTypeLabel('BOOKER' as UserType)).toBe('Listener');
  });

  it("labels the follows screen from its own list: dj-creator is 'DJ / Creator', and distributor is not in it", () => {
    expect(labelsBy(followsTypeLabel)).toEqual({
      LISTENER: 'Listener',
      DJ: 'DJ',
      DJ_CREATOR: 'DJ / Creator',
      CREATOR: 'Creator',
      ARTIST: 'Artist',
      ENGINEER: 'Engineer',
      AGENT: 'Agent',
      RETAILER: 'Retailer',
      LABEL: 'Label',
      PROMOTER: 'Promoter',
      DISTRIBUTOR: 'Listener',
      OTHER: 'Other',
    });
  });
});
