/** Helpers shared by the quiz's unit tests: a fake results page, a graded answer, the mock API. */
import { http, HttpResponse } from 'msw';
import { Link, Outlet, useLocation } from 'react-router';
import type { AttemptRequest, AttemptResult, Paper, QuizTest } from '@/shared/api/types';
import { authValue, renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { QuizPage } from './QuizPage';
import { attemptKey, type SavedAttempt } from './storage';
import { makeTest } from './testUtils';

export const ana = { uid: 'u-ana', email: 'ana@example.com' };

function ResultsProbe() {
  const location = useLocation();
  const state = location.state as { result: AttemptResult } | null;
  return <p>results page for {state?.result.resultId ?? 'nothing'}</p>;
}

/** The quiz inside a layout with an in-app link, as in the app (the navbar). */
const routes = [
  {
    element: (
      <>
        <Link to="/elsewhere">Somewhere else</Link>
        <Outlet />
      </>
    ),
    children: [
      { path: '/quiz/:category/:testId', element: <QuizPage /> },
      { path: '/results/:resultId', element: <ResultsProbe /> },
      { path: '/section/:category', element: <p>section page</p> },
      { path: '/elsewhere', element: <p>another page</p> },
    ],
  },
];

export function graded(test: QuizTest, answers: (number | null)[]): AttemptResult {
  return {
    resultId: 'reading.0001.abc',
    quizId: 'readingTest1',
    category: test.category,
    testId: test.id,
    title: test.title,
    score: 1,
    total: test.questions.length,
    percent: 25,
    durationSeconds: 10,
    clb: 3,
    tefOld: { kind: 'below', below: 121, max: 300 },
    tefNew: { kind: 'below', below: 306, max: 699 },
    exceedsPercent: null,
    paperChanged: false,
    timestamp: '2025-11-20T10:00:00Z',
    questions: test.questions.map((q, i) => ({
      ...q,
      yourAnswer: answers[i] === null || answers[i] === undefined ? null : (q.options[answers[i]] ?? null),
      correctAnswer: q.options[0] ?? '',
      correct: answers[i] === 0,
      explanation: 'Because.',
      transcript: null,
    })),
  };
}

/** Serves the test (counting fetches; a new media version each time) and records submitted attempts. */
export function serve(paper: Paper, count = 4) {
  const calls = { gets: 0, posts: [] as AttemptRequest[] };
  server.use(
    http.get(`/api/tests/${paper}/1`, () => {
      calls.gets += 1;
      return HttpResponse.json(makeTest(paper, count, calls.gets));
    }),
    http.post(`/api/tests/${paper}/1/attempts`, async ({ request }) => {
      const body = (await request.json()) as AttemptRequest;
      calls.posts.push(body);
      return HttpResponse.json(graded(makeTest(paper, count), body.answers));
    }),
  );
  return calls;
}

export function renderQuiz(path = '/quiz/reading/1') {
  return renderWithApp(<></>, { path, routes, auth: authValue({ user: ana }) });
}

export const storageKey = (paper: Paper) => attemptKey(ana.uid, paper, 1);

/** Stores an attempt under way for test 1 of `paper` (fields not given: a fresh attempt of `count` questions). */
export function seedAttempt(paper: Paper, attempt: Partial<SavedAttempt> = {}, count = 4): void {
  const base: SavedAttempt = {
    answers: Array.from({ length: count }, () => null),
    current: 0,
    played: [],
    stoppedAt: {},
    deadline: Date.now() + 2400_000,
    finishedAt: null,
  };
  localStorage.setItem(storageKey(paper), JSON.stringify({ ...base, ...attempt }));
}

export function readAttempt(paper: Paper): SavedAttempt | null {
  return JSON.parse(localStorage.getItem(storageKey(paper)) ?? 'null') as SavedAttempt | null;
}
