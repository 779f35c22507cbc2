import { describe, expect, it } from 'vitest';
import type { SignUpProgressFragment } from '../../gql/graphql';
import { firstOpenStep, stepFromParam } from './sign-up-steps';

const account: SignUpProgressFragment = {
  id: 'u1',
  email: 'ana@example.com',
  userName: null,
  userType: 'LISTENER',
  isAgreedToConduct: false,
  location: null,
};
const located = { ...account, userName: 'dj_ana', location: { latitude: 52.52, longitude: 13.405 } };

describe('sign-up steps', () => {
  it('maps the URL step to a step; the account step has no name of its own', () => {
    expect(stepFromParam(undefined)?.id).toBe('account');
    expect(stepFromParam('user-type')?.path).toBe('/signup/user-type');
    expect(stepFromParam('account')).toBeUndefined();
    expect(stepFromParam('nope')).toBeUndefined();
  });

  it('finds the first step still to do from what the server knows', () => {
    expect(firstOpenStep(null, null)).toBe('account');
    expect(firstOpenStep(account, null)).toBe('username');
    expect(firstOpenStep({ ...account, userName: 'dj_ana' }, null)).toBe('location');
    expect(firstOpenStep(located, null)).toBe('user-type');
    expect(firstOpenStep({ ...located, isAgreedToConduct: true }, null)).toBe('done');
  });

  it('counts the user type as chosen when stored, or when it is not the default Listener', () => {
    expect(firstOpenStep(located, 'listener')).toBe('conduct');
    expect(firstOpenStep({ ...located, userType: 'DJ' }, null)).toBe('conduct');
  });
});
