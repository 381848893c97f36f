import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { AttemptResult } from '@/shared/api/types';
import { authValue, renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { ResultsPage } from './ResultsPage';
import { listeningResult, readingResult } from './testUtils';

const ana = { uid: 'u-ana', email: 'ana@example.com' };
const routes = [{ path: '/results/:resultId', element: <ResultsPage /> }];

function serve(result: AttemptResult) {
  const calls = { gets: 0 };
  server.use(
    http.get(`/api/results/${result.resultId}`, () => {
      calls.gets += 1;
      return HttpResponse.json(result);
    }),
  );
  return calls;
}

/** The element that `el` lies in, matching `selector`; fails the test if there is none. */
function inside(el: Element, selector: string): HTMLElement {
  const found = el.closest(selector);
  if (!(found instanceof HTMLElement)) throw new Error(`no ${selector} around ${el.textContent}`);
  return found;
}

function renderResults(id: string) {
  return renderWithApp(<></>, { path: `/results/${id}`, routes, auth: authValue({ user: ana }) });
}

describe('ResultsPage', () => {
  it('shows the score, the time, the TEF estimate on both scales, the CLB and the basis', async () => {
    const result = readingResult();
    serve(result);
    renderResults(result.resultId);
    expect(await screen.findByRole('heading', { level: 1, name: 'Your Test Results' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Score: 31 out of 40, 77%' })).toBeInTheDocument();
    expect(screen.getByText('Time taken: 42:10')).toBeInTheDocument();
    expect(screen.getByText('TEF estimate: 220 / 300')).toBeInTheDocument();
    expect(screen.getByText('448 / 699 (since Dec 2023)')).toBeInTheDocument();
    expect(screen.getByText('CLB 7')).toBeInTheDocument();
    expect(screen.getByText(/Based On:/).closest('p')).toHaveTextContent(
      'Based On: 31 correct answers out of 40 on Reading Test 1, IRCC equivalence tables',
    );
    expect(screen.getByText('Your performance exceeds 64% of the people conducting the test here!')).toBeInTheDocument();
    expect(screen.getByText(/not official TEF Canada results/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Main Menu' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Back to Reading Selection' })).toHaveAttribute('href', '/section/reading');
  });

  it('compares with nobody until 30 other first attempts exist: it says the percent answered instead', async () => {
    const result = readingResult({ exceedsPercent: null });
    serve(result);
    renderResults(result.resultId);
    expect(await screen.findByText('You answered 77% of the questions correctly.')).toBeInTheDocument();
    expect(screen.queryByText(/Your performance exceeds/)).not.toBeInTheDocument();
  });

  it('says a revised paper was revised, keeps the score, and shows the current questions without the old answers', async () => {
    const revised = readingResult({ paperChanged: true });
    const result: AttemptResult = {
      ...revised,
      questions: revised.questions.map((q) => ({ ...q, yourAnswer: null, correct: false })),
    };
    serve(result);
    renderResults(result.resultId);
    expect(await screen.findByText(/This paper has been revised since you took it\. Your score stands/)).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Score: 31 out of 40, 77%' })).toBeInTheDocument();
    expect(screen.queryByText(/correct · .* wrong · .* unanswered/)).not.toBeInTheDocument();
    expect(screen.queryByText('Your answer')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Show mistakes only')).not.toBeInTheDocument();
    expect(screen.getAllByText('Correct answer')).toHaveLength(40);
  });

  it("writes 'below' on both scales and 'CLB 3 or below', with h:mm:ss over an hour", async () => {
    const result = listeningResult();
    serve(result);
    renderResults(result.resultId);
    expect(await screen.findByText('TEF estimate: below 145 / 360')).toBeInTheDocument();
    expect(screen.getByText('below 306 / 699 (since Dec 2023)')).toBeInTheDocument();
    expect(screen.getByText('CLB 3 or below')).toBeInTheDocument();
    expect(screen.getByText('Time taken: 1:02:05')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Listening Selection' })).toHaveAttribute('href', '/section/listening');
  });

  it('uses the result handed over by the quiz without fetching it again', async () => {
    const result = readingResult();
    const calls = serve(result);
    const { router } = renderWithApp(<></>, { path: '/', routes: [...routes, { path: '/', element: <p>start</p> }], auth: authValue({ user: ana }) });
    await act(() => router.navigate(`/results/${result.resultId}`, { state: { result, receivedAt: Date.now() } }));
    expect(screen.getByText('TEF estimate: 220 / 300')).toBeInTheDocument();
    expect(calls.gets).toBe(0);
  });

  it('lists every answer, with No answer and a right or wrong mark', async () => {
    const result = readingResult();
    serve(result);
    renderResults(result.resultId);
    const list = await screen.findByRole('region', { name: 'Answer breakdown' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(40);
    expect(within(list).getByText('31 correct · 1 wrong · 1 unanswered')).toBeInTheDocument();

    const q2 = inside(within(list).getByRole('heading', { name: 'Question 2, wrong' }), 'li');
    const q3 = inside(within(list).getByRole('heading', { name: 'Question 3, wrong' }), 'li');
    expect(within(list).getByRole('heading', { name: 'Question 1, right' })).toBeInTheDocument();
    expect(within(q2).getByText('Your answer').nextElementSibling).toHaveTextContent('Réponse C2');
    expect(within(q2).getByText('Correct answer').nextElementSibling).toHaveTextContent('Réponse A2');
    expect(within(q3).getByText('Your answer').nextElementSibling).toHaveTextContent('No answer');
  });

  it('reviews a question: its document, the options marked and the explanation', async () => {
    const result = readingResult();
    serve(result);
    const user = userEvent.setup();
    renderResults(result.resultId);
    await user.click(await screen.findByRole('button', { name: 'Review question 1' }));
    expect(screen.getByRole('button', { name: 'Review question 1' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('heading', { name: 'Avis aux résidents' })).toBeInTheDocument();
    expect(screen.getByText('Explanation 1: the message says so.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Review question 2' }));
    const panel = inside(screen.getByText('Explanation 2: the message says so.'), '.review-panel');
    expect(within(panel).getByRole('img', { name: 'A poster' })).toBeInTheDocument();
    expect(within(panel).getByText('Réponse C2').closest('li')).toHaveTextContent('Your answer');
    expect(within(panel).getByText('Réponse A2').closest('li')).toHaveTextContent('Correct answer');
  });

  it('filters the mistakes and opens every review at once', async () => {
    const result = readingResult();
    serve(result);
    const user = userEvent.setup();
    renderResults(result.resultId);
    await user.click(await screen.findByRole('checkbox', { name: 'Show mistakes only' }));
    const list = screen.getByRole('region', { name: 'Answer breakdown' });
    expect(within(list).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Question 2, wrong', 'Question 3, wrong']);
    await user.click(screen.getByRole('button', { name: 'Review all' }));
    expect(screen.getAllByText(/^Explanation \d: the message says so\.$/)).toHaveLength(2);
  });

  it('reviews a listening question with its replayable audio and transcript', async () => {
    const result = listeningResult();
    serve(result);
    const user = userEvent.setup();
    renderResults(result.resultId);
    await user.click(await screen.findByRole('button', { name: 'Review question 1' }));
    const audio = document.querySelector('.review-panel audio');
    expect(audio).toHaveAttribute('controls');
    expect(audio).toHaveAttribute('src', '/media/a1.mp3');
    expect(screen.getByText('Femme:').closest('p')).toHaveTextContent('Femme: Tu es venu à vélo ?');
    expect(screen.getByText('Homme:').closest('p')).toHaveTextContent('Homme: Oui, mais je rentre en autobus.');
  });

  it('shows a notice with Retry when a review image fails, and fetches the result again for fresh links', async () => {
    const result = readingResult();
    const calls = serve(result);
    const user = userEvent.setup();
    renderResults(result.resultId);
    await user.click(await screen.findByRole('button', { name: 'Review question 2' }));
    fireEvent.error(screen.getByRole('img', { name: 'A poster' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The image could not be loaded.');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('img', { name: 'A poster' })).toBeInTheDocument();
    expect(calls.gets).toBe(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says when time ran out, after a reload too (the full time limit was used)', async () => {
    const reading = readingResult({ durationSeconds: 3600 });
    serve(reading);
    const first = renderResults(reading.resultId);
    expect(await screen.findByText('Time taken: 1:00:00')).toBeInTheDocument();
    expect(screen.getByText('Time ran out: your answers were submitted as they stood when the clock reached 0:00.')).toBeInTheDocument();
    first.unmount();

    const listening = { ...listeningResult(), durationSeconds: 2400 };
    serve(listening);
    renderResults(listening.resultId);
    expect(await screen.findByText('Time taken: 40:00')).toBeInTheDocument();
    expect(screen.getByText(/^Time ran out/)).toBeInTheDocument();
  });

  it('does not say time ran out for a test finished in time', async () => {
    const result = readingResult({ durationSeconds: 3599 });
    serve(result);
    renderResults(result.resultId);
    expect(await screen.findByText('Time taken: 59:59')).toBeInTheDocument();
    expect(screen.queryByText(/Time ran out/)).not.toBeInTheDocument();
  });

  it("says when the result doesn't exist or isn't the user's", async () => {
    server.use(http.get('/api/results/nope', () => HttpResponse.json({ error: 'Not found.' }, { status: 404 })));
    renderResults('nope');
    expect(await screen.findByRole('heading', { name: 'Result not found' })).toBeInTheDocument();
  });
});
