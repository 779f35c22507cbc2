import { MockedProvider } from '@apollo/client/testing/react';
import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AuthProvider } from '../../auth/auth';
import { ChangeLogPage } from './ChangeLogPage';
import { PrivacyPage } from './PrivacyPage';
import { TermsPage } from './TermsPage';

function renderPage(page: ReactNode) {
  const router = createMemoryRouter([{ path: '/', element: page }]);
  // The header's search box asks for suggestions only once something is typed.
  render(
    <MockedProvider>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
    </MockedProvider>,
  );
}

const EXPECTED_VERSIONS = ['3.8', '3.7', '3.6', '3.5', '3.4', '3.3', '3.2', '3.1', '3.0', '2.5', '2.4', '2.3', '2.2', '2.1', '2.0'];

describe('change log', () => {
  it('lists releases 2.0 to 3.8, newest first, dated 24/05/2024 to 03/09/2024', () => {
    renderPage(<ChangeLogPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Change log' })).toBeTruthy();
    const headings = screen.getAllByRole('heading', { level: 2 });
    expect(headings.map((heading) => heading.textContent)).toEqual(EXPECTED_VERSIONS.map((version) => `Version ${version}`));

    const dates = [...document.querySelectorAll('time')].map((time) => time.textContent);
    expect(dates).toHaveLength(EXPECTED_VERSIONS.length);
    expect(dates[0]).toBe('03/09/2024');
    expect(dates.at(-1)).toBe('24/05/2024');
    for (const heading of headings) {
      const release = heading.closest('li');
      expect(release && within(release).getAllByRole('listitem').length).toBeGreaterThan(0);
    }
  });

  it('is a public page: the wordmark and Login, no menu', () => {
    renderPage(<ChangeLogPage />);
    expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/signin');
    expect(screen.queryByRole('button', { name: /open menu/i })).toBeNull();
  });
});

describe('terms', () => {
  it('says when they took effect and the minimum age', () => {
    renderPage(<TermsPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Terms of use' })).toBeTruthy();
    expect(screen.getByText('24.05.2024').getAttribute('datetime')).toBe('2024-05-24');
    expect(screen.getByText('16 years old')).toBeTruthy();
  });
});

describe('privacy policy', () => {
  it('is organised under headings', () => {
    renderPage(<PrivacyPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toContain('What we collect');
  });

  it('says exactly what others can see of where a member is: the ~2 km square, whole-km distances, a few changes an hour', () => {
    renderPage(<PrivacyPage />);
    const section = screen.getByRole('heading', { level: 2, name: 'Where you are' }).closest('section');
    const text = section?.textContent?.replace(/\s+/g, ' ') ?? '';
    expect(text).toContain('Only you see it');
    expect(text).toContain('only ever sees the centre of the grid square that holds it: squares are about 2 km on each side');
    expect(text).toContain('shown in whole kilometres');
    expect(text).toContain('You can change your location up to 5 times an hour.');
  });
});
