import type { AttemptResult, ReviewedQuestion } from '@/shared/api/types';

function question(n: number, overrides: Partial<ReviewedQuestion> = {}): ReviewedQuestion {
  return {
    number: n,
    part: 'part',
    prompt: `Que veut dire le message ${n} ?`,
    options: [`Réponse A${n}`, `Réponse B${n}`, `Réponse C${n}`, `Réponse D${n}`],
    document: null,
    image: null,
    audio: null,
    yourAnswer: `Réponse A${n}`,
    correctAnswer: `Réponse A${n}`,
    correct: true,
    explanation: `Explanation ${n}: the message says so.`,
    transcript: null,
    ...overrides,
  };
}

/** A reading result: 31 of 40, question 2 wrong, question 3 unanswered. */
export function readingResult(overrides: Partial<AttemptResult> = {}): AttemptResult {
  const questions = Array.from({ length: 40 }, (_, i) => question(i + 1));
  questions[0] = question(1, { document: { title: 'Avis aux résidents', text: "L'eau sera coupée.\nMerci.", image: null } });
  questions[1] = question(2, { yourAnswer: 'Réponse C2', correct: false, image: { url: '/media/q2.svg?v=1', alt: 'A poster', width: 800, height: 600 } });
  questions[2] = question(3, { yourAnswer: null, correct: false });
  return {
    resultId: 'reading.0000000000000001.00000000000000aa',
    quizId: 'readingTest1',
    category: 'reading',
    testId: 1,
    title: 'Reading Test 1',
    score: 31,
    total: 40,
    percent: 77,
    durationSeconds: 2530,
    clb: 7,
    tefOld: { kind: 'score', value: 220, max: 300 },
    tefNew: { kind: 'score', value: 448, max: 699 },
    exceedsPercent: 64,
    paperChanged: false,
    timestamp: '2025-11-20T10:00:00Z',
    questions,
    ...overrides,
  };
}

/** A listening result below CLB 4, with a transcript on question 1. */
export function listeningResult(): AttemptResult {
  const base = readingResult();
  return {
    ...base,
    resultId: 'listening.0000000000000002.00000000000000bb',
    quizId: 'listeningTest1',
    category: 'listening',
    title: 'Listening Test 1',
    score: 12,
    percent: 30,
    durationSeconds: 3725,
    clb: 3,
    tefOld: { kind: 'below', below: 145, max: 360 },
    tefNew: { kind: 'below', below: 306, max: 699 },
    questions: base.questions.map((q) => ({
      ...q,
      document: null,
      image: null,
      audio: { url: `/media/a${q.number}.mp3` },
      transcript: [
        { speaker: 'Femme', text: 'Tu es venu à vélo ?' },
        { speaker: 'Homme', text: 'Oui, mais je rentre en autobus.' },
      ],
    })),
  };
}
