import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { plansHandler } from '@/shared/plans/testUtils';
import { authValue, meValue, profileValue, renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { routes } from './routes';
import { TITLES } from './titles';

const ana = { uid: 'local-1', email: 'ana@example.com' };
let warn: MockInstance<typeof console.warn>;

beforeEach(() => {
  warn = vi.spyOn(console, 'warn');
  server.use(plansHandler(), http.get('/api/progress', () => HttpResponse.json({ skills: { listening: [], reading: [], speaking: [], writing: [] }, overallClb: null, skillsWithResults: 0 })));
});
afterEach(() => {
  vi.restoreAllMocks();
});

function open(path: string) {
  return renderWithApp(<></>, { path, routes, auth: authValue({ user: ana }), profile: profileValue(meValue()) });
}

// First in the file: React Router prints this warning only once per page load (module).
describe('a direct visit to a lazy page', () => {
  it('shows the navbar and a loading line until the page loads, without the HydrateFallback warning', async () => {
    open('/zoom');
    const loading = screen.queryByRole('status');
    const navbar = screen.queryByRole('navigation', { name: /main/i });
    await screen.findByRole('heading', { level: 1, name: 'Read every detail of a document' });
    expect(document.title).toBe('Image Zoom · TEF Canada Practice');
    const messages = warn.mock.calls.map((args) => args.map(String).join(' '));
    expect(messages.filter((m) => m.includes('HydrateFallback'))).toEqual([]);
    expect(loading).toHaveTextContent('Loading…');
    expect(navbar).toBeInTheDocument();
  });
});

describe('the route table', () => {
  it.each([
    ['/', 'TEF Canada Practice — Mock exams with CLB estimates', 'Prepare for Your TEF Exam with Confidence'],
    ['/dashboard', 'My Dashboard · TEF Canada Practice', 'My Dashboard'],
    ['/results-tracker', 'CLB Progress Tracker · TEF Canada Practice', 'Your CLB Progress Tracker'],
    ['/cancel', 'Purchase Cancelled · TEF Canada Practice', 'Purchase Cancelled'],
    ['/no/such/page', 'Page Not Found · TEF Canada Practice', 'Page Not Found'],
  ])('gives %s its own title', async (path, title, heading) => {
    open(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(title));
  });
});

describe('the writing routes', () => {
  it('opens the writing screen, and sends the old unguarded path to it', async () => {
    server.use(
      http.get('/api/tests/writing/luckyFind', () =>
        HttpResponse.json({
          id: 'writingTest1',
          number: 1,
          slug: 'luckyFind',
          title: 'Une trouvaille inattendue',
          sectionA: { id: 'luckyFindA', prompt: 'Terminez l’article.', narrativeStart: 'Hier matin…' },
          sectionB: { id: 'luckyFindB', statement: '« Trouver, c’est garder. »', prompt: 'Écrivez une lettre.' },
        }),
      ),
    );
    const { router } = open('/section/writing/luckyFind');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sujet 1 : Une trouvaille inattendue' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/writing/luckyFind');
    expect(screen.getByRole('tabpanel', { name: 'Section A' })).toHaveTextContent('TEF CANADA - EXPRESSION ÉCRITE');
    await waitFor(() => expect(document.title).toBe('Writing · TEF Canada Practice'));
  });
});

describe('the speaking route', () => {
  it('opens the speaking screen for a signed-in user', async () => {
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    server.use(
      http.get('/api/tests/speaking/serviceCoursLangue', () =>
        HttpResponse.json({
          id: 'serviceCoursLangue',
          number: 1,
          title: 'Cours de langue du soir',
          sectionA: { bannerTitle: 'Section A – Appel', documentContent: 'Annonce', suggestedQuestions: [], timeLimitSeconds: 300 },
          sectionB: { bannerTitle: 'Section B – Ami', documentContent: 'Ami', timeLimitSeconds: 600 },
        }),
      ),
    );
    open('/speaking/serviceCoursLangue');
    expect(await screen.findByRole('heading', { level: 1, name: 'Cours de langue du soir' })).toBeInTheDocument();
    expect(screen.getByText('Tour de parole (utilisateur) : 0 / 10')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Speaking · TEF Canada Practice'));
  });

  it('keeps visitors out', async () => {
    renderWithApp(<></>, { path: '/speaking/serviceCoursLangue', routes, auth: authValue(), profile: profileValue(null) });
    await waitFor(() => expect(screen.queryByText(/Tour de parole/)).not.toBeInTheDocument());
    expect(await screen.findByRole('heading', { level: 1, name: 'Prepare for Your TEF Exam with Confidence' })).toBeInTheDocument();
  });
});

describe('TITLES', () => {
  it('names each screen from its params', () => {
    expect(TITLES.quiz({ category: 'reading', testId: '3' })).toBe('Reading Test 3');
    expect(TITLES.quiz({ category: ' Listening ', testId: '10' })).toBe('Listening Test 10');
    expect(TITLES.quiz({ category: 'writing', testId: '3' })).toBe('Practice Test');
    expect(TITLES.quiz({ category: 'reading', testId: '<script>' })).toBe('Practice Test');
    expect(TITLES.section({ category: 'READING' })).toBe('Reading Tests');
    expect(TITLES.section({ category: 'speaking' })).toBe('Speaking Tests');
    expect(TITLES.section({ category: 'cooking' })).toBe('Practice Section');
    expect(TITLES.results({ resultId: 'listening.1795643973613906.25bad' })).toBe('Listening Results');
    expect(TITLES.results({ resultId: 'x' })).toBe('Test Results');
    expect(TITLES.landing()).toBeNull();
  });
});
