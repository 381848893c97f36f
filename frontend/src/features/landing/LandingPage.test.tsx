import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authValue, meValue, profileValue, renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import testimonialsFile from '@content/testimonials.json';
import { LandingPage } from './LandingPage';
import { checkTestimonials } from './testimonials';
import { plansHandler } from './testUtils';

const ana = { uid: 'local-1', email: 'ana@example.com' };

function renderLanding(options: Parameters<typeof renderWithApp>[1] = {}) {
  return renderWithApp(<></>, {
    ...options,
    routes: [
      { path: '/', element: <LandingPage /> },
      { path: '/section/:category', element: <p>section page</p> },
      { path: '/results-tracker', element: <p>tracker page</p> },
    ],
  });
}

beforeEach(() => {
  server.use(plansHandler());
});

/** jsdom has no scrollIntoView: install a recorder for the test, removed afterwards. */
function recordScrolls() {
  const scrolled: { id: string; options: unknown }[] = [];
  Object.defineProperty(Element.prototype, 'scrollIntoView', {
    configurable: true,
    writable: true,
    value(this: Element, options?: unknown) {
      scrolled.push({ id: this.id, options });
    },
  });
  return scrolled;
}

async function advance(ms: number) {
  await act(async () => {
    vi.advanceTimersByTime(ms);
    await Promise.resolve();
  });
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  Reflect.deleteProperty(Element.prototype, 'scrollIntoView');
});

describe('LandingPage', () => {
  it('has the hero title and a free-test link to the test choices', async () => {
    renderLanding();
    expect(screen.getByRole('heading', { level: 1, name: 'Prepare for Your TEF Exam with Confidence' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Try a free test' })).toHaveAttribute('href', '/#test-categories');
    await screen.findByRole('heading', { name: 'Quarterly' });
  });

  it('has every in-page anchor', async () => {
    renderLanding();
    for (const id of ['home', 'test-categories', 'progress', 'corrections', 'ai-speaking', 'pricing', 'about']) {
      expect(document.getElementById(id), id).not.toBeNull();
    }
    await screen.findByRole('heading', { name: 'Quarterly' });
  });

  it('shows the four test cards with their format', async () => {
    renderLanding();
    expect(screen.getByRole('heading', { name: 'Choose Your Test' })).toBeInTheDocument();
    // Each card's name is its visible text: title, French name, format and description.
    expect(screen.getByRole('button', { name: /^Reading Compréhension écrite.*40 questions.*60 min/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Listening .*40 questions.*40 min.*heard once/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Writing .*2 tasks.*60 min.*AI correction/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Speaking .*2 tasks.*15 min.*AI examiner/ })).toBeInTheDocument();
    await screen.findByRole('heading', { name: 'Quarterly' });
  });

  it('asks a visitor to sign in and remembers the section chosen', async () => {
    const auth = authValue();
    const { router } = renderLanding({ auth });
    for (const name of ['Reading', 'Listening', 'Writing', 'Speaking']) {
      await userEvent.click(screen.getByRole('button', { name: new RegExp(`^${name} `) }));
      expect(auth.login).toHaveBeenLastCalledWith(`/section/${name.toLowerCase()}`);
    }
    expect(auth.login).toHaveBeenCalledTimes(4);
    expect(router.state.location.pathname).toBe('/');
  });

  it('takes a signed-in user straight to the section', async () => {
    const auth = authValue({ user: ana });
    const { router } = renderLanding({ auth, profile: profileValue(meValue()) });
    await userEvent.click(screen.getByRole('button', { name: /^Listening / }));
    expect(router.state.location.pathname).toBe('/section/listening');
    expect(auth.login).not.toHaveBeenCalled();
  });

  it('links the tracker, the writing corrections and the speaking examiner, with no "not open yet" line', async () => {
    renderLanding();
    expect(screen.getByRole('link', { name: 'Open Results Tracker' })).toHaveAttribute('href', '/results-tracker');
    expect(screen.getByText('AI writing corrections')).toBeInTheDocument();
    expect(screen.queryByText('AI writing corrections (coming soon)')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Try an AI correction' })).toHaveAttribute('href', '/section/writing');
    expect(screen.getByText('AI speaking examiner')).toBeInTheDocument();
    expect(screen.queryByText(/\(coming soon\)/)).not.toBeInTheDocument();
    expect(screen.queryByText(/^Not open yet/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Practise with the AI examiner' })).toHaveAttribute('href', '/section/speaking');
    await screen.findByRole('heading', { name: 'Quarterly' });
  });

  it('opens the tracker for everyone, signed in or not', async () => {
    const { router } = renderLanding({ auth: authValue() });
    await userEvent.click(screen.getByRole('link', { name: 'Open Results Tracker' }));
    expect(router.state.location.pathname).toBe('/results-tracker');
  });

  it('has four FAQ items that open and close (native <details>, keyboard operable in browsers)', async () => {
    renderLanding();
    const questions = [
      'How realistic are the mock exams?',
      'How do the writing and speaking corrections work?',
      'How does progress tracking work?',
      'Do you add new content?',
    ];
    const summaries = Array.from(document.querySelectorAll('#about details > summary'));
    expect(summaries.map((s) => s.textContent)).toEqual(questions);
    const first = summaries[0] as HTMLElement;
    expect(first.parentElement).not.toHaveAttribute('open');
    await userEvent.click(first);
    expect(first.parentElement).toHaveAttribute('open');
    expect(first.parentElement).toHaveTextContent(/not official results/);
    await screen.findByRole('heading', { name: 'Quarterly' });
  });

  it('shows the testimonials grid only with testimonials the operator supplied (decisions §7)', async () => {
    renderLanding();
    const supplied = checkTestimonials(testimonialsFile).testimonials.length;
    const about = document.getElementById('about') as HTMLElement;
    // The three invented video comments are gone for good.
    expect(about.querySelector('img')).toBeNull();
    if (supplied === 0) {
      expect(within(about).queryByRole('heading', { name: 'What candidates say' })).not.toBeInTheDocument();
      expect(about.querySelector('.testimonials')).toBeNull();
    } else {
      expect(within(about).getByRole('heading', { name: 'What candidates say' })).toBeInTheDocument();
      expect(about.querySelectorAll('.testimonial-grid > li')).toHaveLength(supplied);
    }
    await screen.findByRole('heading', { name: 'Quarterly' });
  });
});

describe('LandingPage: hash scrolling', () => {
  it('scrolls smoothly to the section named in the address, 100 ms after opening', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const scrolled = recordScrolls();
    renderLanding({ path: '/#pricing' });
    await advance(99);
    expect(scrolled).toEqual([]);
    await advance(1);
    expect(scrolled).toEqual([{ id: 'pricing', options: { behavior: 'smooth', block: 'start' } }]);
  });

  it('scrolls again when the hash changes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const scrolled = recordScrolls();
    const { router } = renderLanding({ path: '/' });
    await advance(200);
    expect(scrolled).toEqual([]);
    await act(() => router.navigate('/#about'));
    await advance(100);
    expect(scrolled.map((s) => s.id)).toEqual(['about']);
  });
});
