import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AttemptRequest } from '@/shared/api/types';
import { server } from '@/test/server';
import { attemptKey } from './storage';
import { graded, renderQuiz, serve, storageKey } from './quizTestKit';
import { usedSeconds } from './QuizSession';
import { makeTest } from './testUtils';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('QuizPage: routes and errors', () => {
  it('refuses an invalid category, with a way back to the test choices', () => {
    renderQuiz('/quiz/maths/1');
    expect(screen.getByRole('alert')).toHaveTextContent('Error: The category value is invalid. Please check your navigation link.');
    expect(screen.getByRole('link', { name: 'Choose a test' })).toHaveAttribute('href', '/#test-categories');
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });

  it('says "Test not found" for a non-numeric id, for writing, and for a 404', async () => {
    const { unmount } = renderQuiz('/quiz/reading/abc');
    expect(screen.getByRole('heading', { name: 'Test not found' })).toBeInTheDocument();
    unmount();
    const second = renderQuiz('/quiz/writing/1');
    expect(screen.getByRole('heading', { name: 'Test not found' })).toBeInTheDocument();
    second.unmount();
    server.use(http.get('/api/tests/listening/7', () => HttpResponse.json({ error: 'Not found.' }, { status: 404 })));
    renderQuiz('/quiz/listening/7');
    expect(await screen.findByRole('heading', { name: 'Test not found' })).toBeInTheDocument();
  });

  it('shows a locked test with a link to the plans', async () => {
    server.use(http.get('/api/tests/reading/2', () => HttpResponse.json({ error: 'Subscribe to unlock this test.' }, { status: 403 })));
    renderQuiz('/quiz/reading/2');
    expect(await screen.findByRole('heading', { name: 'Reading Test 2 is locked' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/#pricing');
  });
});

describe('QuizPage: answering and navigating', () => {
  it('shows the question, its document and the options, and moves with Previous and Next', async () => {
    serve('reading');
    const user = userEvent.setup();
    renderQuiz();
    expect(await screen.findByText('Question 1 of 4')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Position in the test' })).toHaveAttribute('aria-valuenow', '1');
    expect(screen.getByRole('heading', { name: 'Avis aux résidents' })).toBeInTheDocument();
    expect(screen.getByText(/Ligne un/)).toHaveClass('quiz-document-text');
    // Text only, no image: the discreet line.
    expect(screen.getByText('No image available for this question.')).toBeInTheDocument();

    const group = screen.getByRole('group', { name: /Question 1 : que dit le document/ });
    expect(within(group).getAllByRole('radio')).toHaveLength(4);
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await user.click(within(group).getByRole('radio', { name: /Option B1/ }));
    expect(within(group).getByRole('radio', { name: /Option B1/ })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Question 1, answered' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Question 2 of 4')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'A parking sign' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Zoom in' })).toBeInTheDocument();
    expect(screen.queryByText('No image available for this question.')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(screen.getByRole('radio', { name: /Option B1/ })).toBeChecked();
  });

  it('answers with the keyboard', async () => {
    serve('reading');
    const user = userEvent.setup();
    renderQuiz();
    const first = await screen.findByRole('radio', { name: /Option A1/ });
    first.focus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('radio', { name: /Option B1/ })).toBeChecked();
  });

  it('has a navigator with one button per question, marking answered, unanswered and current', async () => {
    serve('reading', 40);
    const user = userEvent.setup();
    renderQuiz();
    await screen.findByText('Question 1 of 40');
    const nav = screen.getByRole('navigation', { name: 'Questions' });
    expect(within(nav).getAllByRole('button')).toHaveLength(40);
    expect(within(nav).getByRole('button', { name: 'Question 1, unanswered' })).toHaveAttribute('aria-current', 'step');

    await user.click(within(nav).getByRole('button', { name: 'Question 12, unanswered' }));
    expect(screen.getByText('Question 12 of 40')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /Option C12/ }));
    expect(within(nav).getByRole('button', { name: 'Question 12, answered' })).toHaveAttribute('aria-current', 'step');
    expect(within(nav).getByText('1 of 40 answered')).toBeInTheDocument();

    await user.click(within(nav).getByRole('button', { name: 'Question 40, unanswered' }));
    expect(screen.getByRole('button', { name: 'Finish' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
  });
});

describe('QuizPage: finishing', () => {
  it('asks for confirmation with unanswered questions, then posts the answers in order', async () => {
    const calls = serve('reading');
    // Started 125 s ago.
    localStorage.setItem(
      storageKey('reading'),
      JSON.stringify({ answers: [null, null, null, null], current: 0, played: [], deadline: Date.now() + 3600_000 - 125_000, finishedAt: null }),
    );
    const user = userEvent.setup();
    const { router } = renderQuiz();
    await user.click(await screen.findByRole('radio', { name: /Option C1/ }));
    await user.click(screen.getByRole('button', { name: 'Question 4, unanswered' }));
    await user.click(screen.getByRole('radio', { name: /Option A4/ }));
    await user.click(screen.getByRole('button', { name: 'Finish' }));

    const dialog = screen.getByRole('dialog', { name: 'Finish the test?' });
    expect(dialog).toHaveTextContent('You have 2 unanswered questions. Finish anyway?');
    await user.click(within(dialog).getByRole('button', { name: 'Keep answering' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.posts).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Finish' }));
    await user.click(screen.getByRole('button', { name: 'Finish anyway' }));
    expect(await screen.findByText('results page for reading.0001.abc')).toBeInTheDocument();
    expect(calls.posts).toHaveLength(1);
    expect(calls.posts[0]?.answers).toEqual([2, null, null, 0]);
    expect(calls.posts[0]?.durationSeconds).toBeGreaterThanOrEqual(125);
    expect(calls.posts[0]?.durationSeconds).toBeLessThan(135);
    expect(router.state.location.pathname).toBe('/results/reading.0001.abc');
    // A submitted attempt is cleared from the device.
    expect(localStorage.getItem(storageKey('reading'))).toBeNull();
  });

  it('finishes without confirmation when every question is answered, showing Submitting…', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    server.use(
      http.get('/api/tests/reading/1', () => HttpResponse.json(makeTest('reading', 1))),
      http.post('/api/tests/reading/1/attempts', async () => {
        await gate;
        return HttpResponse.json(graded(makeTest('reading', 1), [1]));
      }),
    );
    const user = userEvent.setup();
    renderQuiz();
    await user.click(await screen.findByRole('radio', { name: /Option B1/ }));
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Submitting…');
    release();
    expect(await screen.findByText('results page for reading.0001.abc')).toBeInTheDocument();
  });

  it('keeps the answers and offers Retry when the submission fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let fail = true;
    const posts: AttemptRequest[] = [];
    server.use(
      http.get('/api/tests/reading/1', () => HttpResponse.json(makeTest('reading', 1))),
      http.post('/api/tests/reading/1/attempts', async ({ request }) => {
        posts.push((await request.json()) as AttemptRequest);
        if (fail) return HttpResponse.json({ error: 'Something went wrong on our side.' }, { status: 500 });
        return HttpResponse.json(graded(makeTest('reading', 1), [3]));
      }),
    );
    const user = userEvent.setup();
    renderQuiz();
    await user.click(await screen.findByRole('radio', { name: /Option D1/ }));
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    const failed = await screen.findByRole('alert');
    expect(failed).toHaveTextContent(/Your answers could not be submitted/);
    expect(failed).toHaveTextContent('Your answers are kept on this device. Press Retry to send them again.');
    const saved = JSON.parse(localStorage.getItem(storageKey('reading')) ?? 'null') as { answers: unknown; finishedAt: unknown };
    expect(saved.answers).toEqual([3]);
    expect(saved.finishedAt).toEqual(expect.any(Number));

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('results page for reading.0001.abc')).toBeInTheDocument();
    expect(posts.map((p) => p.answers)).toEqual([[3], [3]]);
  });

  it('says "check your connection" once when the network is down', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(
      http.get('/api/tests/reading/1', () => HttpResponse.json(makeTest('reading', 1))),
      http.post('/api/tests/reading/1/attempts', () => HttpResponse.error()),
    );
    const user = userEvent.setup();
    renderQuiz();
    await user.click(await screen.findByRole('radio', { name: /Option A1/ }));
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    const failed = await screen.findByRole('alert');
    expect(failed).toHaveTextContent('Your answers could not be submitted. Network error. Please check your connection and try again.');
    expect(failed.textContent.match(/check your connection/gi)).toHaveLength(1);
  });

  it('reports the whole time limit only when the clock ran out, never for a finish in the last second', () => {
    const deadline = 1_000_000_000;
    const base = { answers: [0], current: 0, played: [], stoppedAt: {}, deadline };
    // Finished by hand 0.6 s before the deadline: rounding would claim the full hour.
    expect(usedSeconds({ ...base, finishedAt: deadline - 600 }, 3600_000)).toBe(3599);
    expect(usedSeconds({ ...base, finishedAt: deadline }, 3600_000)).toBe(3600);
    expect(usedSeconds({ ...base, finishedAt: deadline - 3600_000 + 125_400 }, 3600_000)).toBe(125);
  });

  it('sends an attempt whose time ran out while the page was closed', async () => {
    const calls = serve('reading');
    localStorage.setItem(
      storageKey('reading'),
      JSON.stringify({ answers: [1, null, null, null], current: 2, played: [], deadline: Date.now() - 60_000, finishedAt: null }),
    );
    renderQuiz();
    expect(await screen.findByText('results page for reading.0001.abc')).toBeInTheDocument();
    expect(calls.posts).toEqual([
      { answers: [1, null, null, null], durationSeconds: 3600, attemptId: expect.stringMatching(/^reading-1-\d+$/) as unknown },
    ]);
  });
});

describe('QuizPage: the timer', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });

  it('counts down from the time limit, h:mm:ss over an hour', async () => {
    serve('reading');
    renderQuiz();
    expect(await screen.findByText('Time left: 1:00:00')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByText('Time left: 59:59')).toBeInTheDocument();
    expect(screen.getByText('Time left: 59:59').closest('.quiz-timer')).not.toHaveClass('is-urgent');
  });

  it('turns red at 60 seconds and finishes by itself at 0, without confirmation', async () => {
    const calls = serve('reading');
    localStorage.setItem(
      storageKey('reading'),
      JSON.stringify({ answers: [null, 1, null, null], current: 1, played: [], deadline: Date.now() + 61_000, finishedAt: null }),
    );
    renderQuiz();
    const timer = await screen.findByText('Time left: 1:01');
    expect(timer.closest('.quiz-timer')).not.toHaveClass('is-urgent');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByText('Time left: 1:00').closest('.quiz-timer')).toHaveClass('is-urgent');
    expect(screen.getByText('Less than one minute left.')).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await vi.waitFor(() => expect(screen.getByText('results page for reading.0001.abc')).toBeInTheDocument());
    expect(calls.posts).toEqual([
      { answers: [null, 1, null, null], durationSeconds: 3600, attemptId: expect.stringMatching(/^reading-1-\d+$/) as unknown },
    ]);
  });
});

describe('QuizPage: progress survives a reload', () => {
  it('restores answers, the current question and the deadline after a remount', async () => {
    serve('reading');
    const user = userEvent.setup();
    const first = renderQuiz();
    await user.click(await screen.findByRole('radio', { name: /Option B1/ }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Question 3 of 4')).toBeInTheDocument();
    const saved = JSON.parse(localStorage.getItem(storageKey('reading')) ?? 'null') as { deadline: number };
    first.unmount();

    renderQuiz();
    expect(await screen.findByText('Question 3 of 4')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Question 1, answered' })).toBeInTheDocument();
    const again = JSON.parse(localStorage.getItem(storageKey('reading')) ?? 'null') as { deadline: number };
    expect(again.deadline).toBe(saved.deadline);
  });

  it('keeps attempts apart per user', async () => {
    serve('reading');
    localStorage.setItem(
      attemptKey('someone-else', 'reading', 1),
      JSON.stringify({ answers: [1, 1, 1, 1], current: 3, played: [], deadline: Date.now() + 1000_000, finishedAt: null }),
    );
    renderQuiz();
    expect(await screen.findByText('Question 1 of 4')).toBeInTheDocument();
    expect(screen.getByText('0 of 4 answered')).toBeInTheDocument();
  });
});

describe('QuizPage: images', () => {
  it('shows a notice when an image fails, and reloads it with fresh links on Retry', async () => {
    const calls = serve('reading');
    const user = userEvent.setup();
    renderQuiz();
    await user.click(await screen.findByRole('button', { name: 'Question 3, unanswered' }));
    const img = screen.getByRole('img', { name: 'A poster' });
    expect(img).toHaveAttribute('src', '/media/q3.svg?v=1');
    fireEvent.error(img);

    expect(screen.getByRole('alert')).toHaveTextContent('The image could not be loaded.');
    expect(screen.queryByRole('img', { name: 'A poster' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));

    expect(await screen.findByRole('img', { name: 'A poster' })).toHaveAttribute('src', '/media/q3.svg?v=2');
    expect(calls.gets).toBe(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // Still on the same question, with the attempt untouched.
    expect(screen.getByText('Question 3 of 4')).toBeInTheDocument();
  });

  it('refreshes expired links silently before showing any notice', async () => {
    const calls = serve('reading');
    const user = userEvent.setup();
    renderQuiz();
    await user.click(await screen.findByRole('button', { name: 'Question 3, unanswered' }));
    // Eleven minutes later, the signed link has expired.
    const later = Date.now() + 11 * 60_000;
    vi.spyOn(Date, 'now').mockReturnValue(later);
    fireEvent.error(screen.getByRole('img', { name: 'A poster' }));

    await waitFor(() => expect(screen.getByRole('img', { name: 'A poster' })).toHaveAttribute('src', '/media/q3.svg?v=2'));
    expect(calls.gets).toBe(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
