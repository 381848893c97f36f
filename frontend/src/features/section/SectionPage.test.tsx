import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Catalogue } from '@/shared/api/types';
import { attemptKey } from '@/shared/attempts';
import { authValue, renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { parseCategory } from './categories';
import { SectionPage } from './SectionPage';

const routes = [{ path: '/section/:category', element: <SectionPage /> }];

function catalogue(category: 'reading' | 'listening', free = true): Catalogue {
  const label = category === 'reading' ? 'Reading' : 'Listening';
  return {
    category,
    tests: Array.from({ length: 10 }, (_, i) => ({ id: i + 1, title: `${label} Test ${i + 1}`, locked: free && i > 0, available: i < 3 })),
  };
}

describe('SectionPage', () => {
  it('trims and lower-cases the category', () => {
    expect(parseCategory('  Reading ')).toBe('reading');
    expect(parseCategory('maths')).toBeNull();
    expect(parseCategory(undefined)).toBeNull();
  });

  it('shows the intro pill, title and explainer', () => {
    server.use(http.get('/api/tests/listening', () => HttpResponse.json(catalogue('listening'))));
    renderWithApp(<></>, { path: '/section/LISTENING', routes });
    expect(screen.getByText('Listening Section')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Listening Tests' })).toBeInTheDocument();
    expect(screen.getByText('Each audio is heard once, as in the exam.')).toBeInTheDocument();
  });

  it('refuses an invalid category, with a way back to the test choices', () => {
    renderWithApp(<></>, { path: '/section/maths', routes });
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Error: The category value is invalid. Please check your navigation link.',
    );
    expect(screen.getByRole('link', { name: 'Choose a test' })).toHaveAttribute('href', '/#test-categories');
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });

  it("offers 'Continue' for a test in progress on this device, and 'Start' otherwise", async () => {
    const ana = { uid: 'u-ana', email: 'ana@example.com' };
    const now = Date.now();
    const attempt = (deadline: number, answers: (number | null)[], finishedAt: number | null = null) =>
      JSON.stringify({ answers, current: 0, played: [], stoppedAt: {}, deadline, finishedAt });
    // Test 1: clock running, nothing answered yet. Test 2: out of time with answers (sent on opening).
    localStorage.setItem(attemptKey(ana.uid, 'reading', 1), attempt(now + 600_000, [null, null]));
    localStorage.setItem(attemptKey(ana.uid, 'reading', 2), attempt(now - 1000, [1, null]));
    // Test 3: out of time with no answer (starts afresh); another user's attempt on test 3 does not count.
    localStorage.setItem(attemptKey(ana.uid, 'reading', 3), attempt(now - 1000, [null, null]));
    localStorage.setItem(attemptKey('someone-else', 'reading', 3), attempt(now + 600_000, [1, 1]));
    server.use(http.get('/api/tests/reading', () => HttpResponse.json(catalogue('reading', false))));
    renderWithApp(<></>, { path: '/section/reading', routes, auth: authValue({ user: ana }) });

    const first = await screen.findByRole('link', { name: 'Continue Reading Test 1' });
    expect(first).toHaveAttribute('href', '/quiz/reading/1');
    expect(first).toHaveTextContent('In progress');
    expect(first).toHaveTextContent('Continue →');
    expect(screen.getByRole('link', { name: 'Continue Reading Test 2' })).toBeInTheDocument();
    const third = screen.getByRole('link', { name: /^Reading Test 3/ });
    expect(third).toHaveTextContent('Start →');
    expect(third).not.toHaveTextContent('In progress');
  });

  it('lists open, locked and coming-soon tests', async () => {
    server.use(http.get('/api/tests/reading', () => HttpResponse.json(catalogue('reading'))));
    renderWithApp(<></>, { path: '/section/reading', routes });
    expect(screen.getByText('Loading the tests…')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: /^Reading Test 1/ })).toHaveAttribute('href', '/quiz/reading/1');

    const locked = screen.getByText('Reading Test 2 (Subscribe to unlock)');
    expect(locked.closest('a')).toBeNull();
    const entry = locked.closest('li');
    if (!entry) throw new Error('no entry');
    expect(within(entry).getByRole('link', { name: 'See plans to unlock Reading Test 2' })).toHaveAttribute('href', '/#pricing');

    // Locked, and not published yet either: says so next to the plans link.
    const lockedSoon = screen.getByText('Reading Test 4 (Subscribe to unlock)').closest('li');
    if (!lockedSoon) throw new Error('no entry');
    expect(within(lockedSoon).getByText('Content coming soon')).toBeInTheDocument();
    expect(within(entry).queryByText('Content coming soon')).not.toBeInTheDocument();
    expect(screen.getAllByText(/\(Subscribe to unlock\)$/)).toHaveLength(9);
  });

  it('opens every published test to a subscriber; the others are coming soon, not links', async () => {
    server.use(http.get('/api/tests/listening', () => HttpResponse.json(catalogue('listening', false))));
    renderWithApp(<></>, { path: '/section/listening', routes });
    expect(await screen.findByRole('link', { name: /^Listening Test 3/ })).toHaveAttribute('href', '/quiz/listening/3');
    expect(screen.queryByText(/Subscribe to unlock/)).not.toBeInTheDocument();
    const soon = screen.getByText('Listening Test 4 (coming soon)');
    expect(soon.closest('a')).toBeNull();
    expect(within(soon.closest('li') ?? document.body).queryByRole('link')).not.toBeInTheDocument();
    expect(screen.getAllByText(/\(coming soon\)$/)).toHaveLength(7);
  });

  it('links writing topics by their slug (by number when a topic has none)', async () => {
    server.use(
      http.get('/api/tests/writing', () =>
        HttpResponse.json({
          category: 'writing',
          tests: [
            { id: 1, slug: 'luckyFind', title: 'Une trouvaille inattendue', locked: false, available: true },
            { id: 2, title: 'Sans nom', locked: false, available: true },
            { id: 3, slug: 'garden', title: 'Le jardin partagé', locked: true, available: true },
          ],
        }),
      ),
    );
    renderWithApp(<></>, { path: '/section/writing', routes });
    expect(await screen.findByRole('link', { name: /^Une trouvaille inattendue/ })).toHaveAttribute('href', '/writing/luckyFind');
    expect(screen.getByRole('link', { name: /^Sans nom/ })).toHaveAttribute('href', '/writing/2');
    expect(screen.getByText('Le jardin partagé (Subscribe to unlock)').closest('a')).toBeNull();
  });

  it('links speaking topics by their slug (by number when a topic has none)', async () => {
    server.use(
      http.get('/api/tests/speaking', () =>
        HttpResponse.json({
          category: 'speaking',
          tests: [
            { id: 1, slug: 'serviceCoursLangue', title: 'Cours de langue du soir', locked: false, available: true },
            { id: 2, title: 'Sans nom', locked: false, available: true },
            { id: 3, slug: 'usedCarForSale', title: 'Voiture d’occasion', locked: true, available: true },
          ],
        }),
      ),
    );
    renderWithApp(<></>, { path: '/section/speaking', routes });
    expect(await screen.findByRole('link', { name: /^Cours de langue du soir/ })).toHaveAttribute('href', '/speaking/serviceCoursLangue');
    expect(screen.getByRole('link', { name: /^Sans nom/ })).toHaveAttribute('href', '/speaking/2');
    expect(screen.getByText('Voiture d’occasion (Subscribe to unlock)').closest('a')).toBeNull();
  });

  it('says writing tasks open in an upcoming release when the list is empty', async () => {
    server.use(http.get('/api/tests/writing', () => HttpResponse.json({ category: 'writing', tests: [] })));
    renderWithApp(<></>, { path: '/section/writing', routes });
    expect(await screen.findByText('Writing tasks open in an upcoming release.')).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('says when the list could not be loaded, and tries again', async () => {
    let fail = true;
    server.use(
      http.get('/api/tests/reading', () =>
        fail ? HttpResponse.json({ error: 'Something went wrong on our side.' }, { status: 500 }) : HttpResponse.json(catalogue('reading')),
      ),
    );
    const user = userEvent.setup();
    renderWithApp(<></>, { path: '/section/reading', routes });
    expect(await screen.findByRole('alert')).toHaveTextContent('The list of tests could not be loaded.');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: /^Reading Test 1/ })).toBeInTheDocument();
  });
});
