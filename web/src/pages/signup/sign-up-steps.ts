import type { SignUpProgressFragment } from '../../gql/graphql';

/** The sign-up steps in order (docs/accounts.md#sign-up: account, then username, location, user type, code of conduct). */
export const SIGN_UP_STEPS = [
  { id: 'account', path: '/signup', label: 'Account' },
  { id: 'username', path: '/signup/username', label: 'Username' },
  { id: 'location', path: '/signup/location', label: 'Location' },
  { id: 'user-type', path: '/signup/user-type', label: 'User type' },
  { id: 'conduct', path: '/signup/conduct', label: 'Code of conduct' },
] as const;

export type SignUpStepId = (typeof SIGN_UP_STEPS)[number]['id'];
export type SignUpStep = (typeof SIGN_UP_STEPS)[number];

/** The step a `signup/:step?` URL names; undefined for an unknown step. */
export function stepFromParam(param: string | undefined): SignUpStep | undefined {
  return param === undefined ? SIGN_UP_STEPS[0] : SIGN_UP_STEPS.find((step) => step.id === param && step.id !== 'account');
}

export const stepIndex = (id: SignUpStepId): number => SIGN_UP_STEPS.findIndex((step) => step.id === id);

export const stepById = (id: SignUpStepId): SignUpStep => SIGN_UP_STEPS[stepIndex(id)];

/**
 * The first step still to do, or 'done'. The server tells every step apart but the user type, which starts as Listener:
 * a chosen type is known from the stored `user_type` (written when the step is saved), from a type other than
 * Listener, or from a later step being done.
 */
export function firstOpenStep(progress: SignUpProgressFragment | null, storedUserType: string | null): SignUpStepId | 'done' {
  if (!progress) return 'account';
  if (!progress.userName) return 'username';
  if (!progress.location) return 'location';
  const userTypeChosen = storedUserType !== null || progress.userType !== 'LISTENER' || progress.isAgreedToConduct;
  if (!userTypeChosen) return 'user-type';
  if (!progress.isAgreedToConduct) return 'conduct';
  return 'done';
}
