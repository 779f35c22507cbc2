import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { LOCATION_RULE } from '@mixcrate/api/rules';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../../auth/auth';
import {
  AgreeToConductDocument,
  AssignRandomMixDocument,
  SetLocationDocument,
  SetUserNameDocument,
  SetUserTypeDocument,
  SignUpDocument,
  SignUpProgressDocument,
  type SignUpProgressFragment,
} from '../../gql/graphql';
import { MUST_AGREE } from './ConductStep';
import { locationMessages } from './LocationStep';
import { SignUpPage } from './SignUpPage';

const STRONG = 'Mixcrate1!';

const progress = (changes: Partial<SignUpProgressFragment> = {}) => ({
  __typename: 'Viewer' as const,
  id: 'u1',
  email: 'ana@example.com',
  userName: null,
  userType: 'LISTENER' as const,
  isAgreedToConduct: false,
  location: null,
  ...changes,
});
const BERLIN = { __typename: 'Location' as const, latitude: 52.52, longitude: 13.405 };

/** What the server says about the signed-in member when the page loads with a stored token. */
const progressMock = (changes: Partial<SignUpProgressFragment> = {}): MockLink.MockedResponse => ({
  request: { query: SignUpProgressDocument },
  result: { data: { me: progress(changes) } },
});

function renderSignUp(path: string, mocks: MockLink.MockedResponse[] = [], token?: string) {
  if (token) localStorage.setItem('token', token);
  const router = createMemoryRouter(
    [
      { path: '/signup/:step?', element: <SignUpPage /> },
      { path: '/home', element: <p>Home screen</p> },
      { path: '/signin', element: <p>Login screen</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <AuthProvider>
      <MockedProvider mocks={mocks}>
        <RouterProvider router={router} />
      </MockedProvider>
    </AuthProvider>,
  );
  return { router, user: userEvent.setup() };
}

const heading = (name: string) => screen.findByRole('heading', { level: 1, name });
const next = () => screen.getByRole('button', { name: 'Next' });
const currentStep = () => document.querySelector('[aria-current="step"]')?.textContent;

describe('sign-up: account step', () => {
  it('validates email, password and confirmation with the documented rules', async () => {
    const { user } = renderSignUp('/signup');
    await heading('Create your account');
    expect(screen.getByText('Step 1 of 5')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByText('Please enter a valid email')).toBeTruthy();
    expect(screen.getByText('Please enter a password')).toBeTruthy();
    expect(screen.getByText('Please confirm your password')).toBeTruthy();

    await user.type(screen.getByLabelText('Password'), 'password1');
    expect(screen.getByText('Passwords must be min. 8 chars, one capital letter, one number, and one special character')).toBeTruthy();
  });

  it('refuses a password for its length alone: 7 characters meeting every other rule, taken at 8', async () => {
    const { user } = renderSignUp('/signup');
    await heading('Create your account');
    const rule = 'Passwords must be min. 8 chars, one capital letter, one number, and one special character';
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await user.type(screen.getByLabelText('Password'), 'Ab1!xyz');
    expect(screen.getByText(rule)).toBeTruthy();
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true');
    await user.type(screen.getByLabelText('Password'), 'w');
    expect(screen.queryByText(rule)).toBeNull();
  });

  it('creates the account with the opt-in, stores the session and goes to the username step', async () => {
    const { user, router } = renderSignUp('/signup', [
      {
        request: { query: SignUpDocument, variables: { input: { email: 'ana@example.com', password: STRONG, hasOptedIn: true } } },
        result: { data: { signUp: { __typename: 'AuthPayload', token: 'token-new', viewer: progress() } } },
      },
    ]);
    await user.type(await screen.findByLabelText('Email'), 'Ana@Example.com');
    await user.type(screen.getByLabelText('Password'), STRONG);
    await user.type(screen.getByLabelText('Confirm password'), STRONG);
    await user.click(screen.getByRole('checkbox', { name: /send me news/i }));
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    await heading('Choose a username');
    expect(router.state.location.pathname).toBe('/signup/username');
    expect(localStorage.getItem('token')).toBe('token-new');
    expect(currentStep()).toBe('Username');
    // The step's heading takes focus in an effect after it renders: on a loaded machine that is a moment later.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 })));
  });

  it("shows the server's message and keeps what was typed", async () => {
    const taken = 'An account with this email already exists';
    const { user } = renderSignUp('/signup', [
      {
        request: { query: SignUpDocument, variables: { input: { email: 'ana@example.com', password: STRONG, hasOptedIn: false } } },
        result: { errors: [new GraphQLError(taken, { extensions: { code: 'CONFLICT', status: 409 } })] },
      },
    ]);
    await user.type(await screen.findByLabelText('Email'), 'ana@example.com');
    await user.type(screen.getByLabelText('Password'), STRONG);
    await user.type(screen.getByLabelText('Confirm password'), STRONG);
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    expect((await screen.findByRole('alert')).textContent).toBe(taken);
    expect(screen.getByLabelText('Email')).toHaveProperty('value', 'ana@example.com');
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('sign-up: resuming', () => {
  it('sends a visitor without an account from a later step to the first one', async () => {
    const { router } = renderSignUp('/signup/conduct');
    await heading('Create your account');
    expect(router.state.location.pathname).toBe('/signup');
  });

  it('sends a member from a step ahead of their progress back to the first open step', async () => {
    const { router } = renderSignUp('/signup/conduct', [progressMock({ userName: 'dj_ana' })], 'token-1');
    await heading('Where are you?');
    expect(router.state.location.pathname).toBe('/signup/location');
  });

  it('offers to continue an account made earlier', async () => {
    const { user, router } = renderSignUp('/signup', [progressMock({ userName: 'dj_ana', location: BERLIN })], 'token-1');
    await heading('Your account is ready');
    expect(screen.getByText('ana@example.com')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await heading('What do you do?');
    expect(router.state.location.pathname).toBe('/signup/user-type');
  });

  it('sends a member who finished sign-up home', async () => {
    renderSignUp('/signup', [progressMock({ userName: 'dj_ana', location: BERLIN, userType: 'DJ', isAgreedToConduct: true })], 'token-1');
    await screen.findByText('Home screen');
  });

  it('forgets a stored session the server no longer accepts and offers the form', async () => {
    renderSignUp(
      '/signup/username',
      [
        {
          request: { query: SignUpProgressDocument },
          result: { errors: [new GraphQLError('Invalid token', { extensions: { code: 'UNAUTHENTICATED' } })] },
        },
      ],
      'stale',
    );
    await heading('Create your account');
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('sign-up: the steps after the account', () => {
  it('goes through username, location, user type and code of conduct to /home', async () => {
    const { user, router } = renderSignUp(
      '/signup/username',
      [
        progressMock(),
        {
          request: { query: SetUserNameDocument, variables: { userName: 'dj_ana' } },
          result: { data: { setUserName: progress({ userName: 'dj_ana' }) } },
        },
        {
          request: { query: SetLocationDocument, variables: { location: { latitude: 52.52, longitude: 13.405 } } },
          result: { data: { setLocation: progress({ userName: 'dj_ana', location: BERLIN }) } },
        },
        {
          request: { query: SetUserTypeDocument, variables: { userType: 'DJ_CREATOR' } },
          result: { data: { setUserType: progress({ userName: 'dj_ana', location: BERLIN, userType: 'DJ_CREATOR' }) } },
        },
        {
          request: { query: AgreeToConductDocument },
          result: {
            data: { agreeToConduct: progress({ userName: 'dj_ana', location: BERLIN, userType: 'DJ_CREATOR', isAgreedToConduct: true }) },
          },
        },
        {
          request: { query: AssignRandomMixDocument },
          result: { data: { assignRandomMix: { __typename: 'Viewer', id: 'u1', currentMixId: 'm1', currentMixPosition: 0 } } },
        },
      ],
      'token-1',
    );

    await heading('Choose a username');
    await user.type(screen.getByLabelText('Username'), 'dj_ana');
    await user.click(next());

    await heading('Where are you?');
    expect(localStorage.getItem('user_name')).toBe('dj_ana');
    await user.click(screen.getByRole('button', { name: 'Berlin' }));
    expect(screen.getByLabelText('Latitude')).toHaveProperty('value', '52.52');
    expect(screen.getByRole('button', { name: 'Berlin' }).getAttribute('aria-pressed')).toBe('true');
    await user.click(next());

    await heading('What do you do?');
    expect(screen.getAllByRole('radio')).toHaveLength(12);
    expect(screen.getByRole('radio', { name: 'Listener' })).toHaveProperty('checked', true);
    await user.click(screen.getByRole('radio', { name: 'DJ Creator' }));
    await user.click(next());

    await heading('Code of conduct');
    expect(localStorage.getItem('user_type')).toBe('dj-creator');
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(screen.getByText(MUST_AGREE)).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: 'I agree to the mixcrate code of conduct' }));
    await user.click(screen.getByRole('button', { name: 'Finish' }));

    await screen.findByText('Home screen');
    expect(router.state.location.pathname).toBe('/home');
  });

  it("shows the server's answer when a username is taken", async () => {
    const taken = 'The username dj_ana is already taken';
    const { user } = renderSignUp(
      '/signup/username',
      [
        progressMock(),
        {
          request: { query: SetUserNameDocument, variables: { userName: 'dj_ana' } },
          result: { errors: [new GraphQLError(taken, { extensions: { code: 'CONFLICT', status: 409 } })] },
        },
      ],
      'token-1',
    );
    await heading('Choose a username');
    await user.click(next());
    expect(screen.getByText('Usernames are 3 to 30 letters, digits, _ . or -')).toBeTruthy();

    await user.type(screen.getByLabelText('Username'), 'dj_ana');
    await user.click(next());
    await screen.findByText(taken);
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Username')).toHaveProperty('value', 'dj_ana');
  });

  it('Back goes to the previous step', async () => {
    const { user, router } = renderSignUp('/signup/user-type', [progressMock({ userName: 'dj_ana', location: BERLIN })], 'token-1');
    await heading('What do you do?');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await heading('Where are you?');
    expect(router.state.location.pathname).toBe('/signup/location');
    expect(screen.getByLabelText('Latitude')).toHaveProperty('value', '52.52');
  });
});

describe('sign-up: location', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  function stubGeolocation(getCurrentPosition: Geolocation['getCurrentPosition']) {
    vi.stubGlobal('navigator', { ...navigator, geolocation: { getCurrentPosition } });
  }

  it("fills the coordinates from the browser's position", async () => {
    stubGeolocation((success) => success({ coords: { latitude: 48.137154, longitude: 11.576124 } } as GeolocationPosition));
    const { user } = renderSignUp('/signup/location', [progressMock({ userName: 'dj_ana' })], 'token-1');
    await heading('Where are you?');
    await user.click(screen.getByRole('button', { name: 'Use my location' }));
    expect(screen.getByLabelText('Latitude')).toHaveProperty('value', '48.1372');
    expect(screen.getByLabelText('Longitude')).toHaveProperty('value', '11.5761');
    expect(screen.getByText(locationMessages.found)).toBeTruthy();
  });

  it('explains a refused position and keeps the manual way open', async () => {
    stubGeolocation((_success, failure) =>
      failure?.({ code: 1, PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3, message: 'denied' } as GeolocationPositionError),
    );
    const { user } = renderSignUp('/signup/location', [progressMock({ userName: 'dj_ana' })], 'token-1');
    await heading('Where are you?');
    await user.click(screen.getByRole('button', { name: 'Use my location' }));
    expect(screen.getByText(locationMessages.denied)).toBeTruthy();

    await user.type(screen.getByLabelText('Latitude'), '91');
    await user.type(screen.getByLabelText('Longitude'), 'east');
    await user.click(next());
    expect(screen.getByText(LOCATION_RULE.latitude.outOfRange)).toBeTruthy();
    expect(screen.getByText(LOCATION_RULE.longitude.notANumber)).toBeTruthy();
  });
});
