import type { Paper, QuizQuestion, QuizTest } from '@/shared/api/types';

/** A test of `count` questions. Reading: q1 has a text document, q2 a document image, q3 a question image. Listening: every question has audio. */
export function makeTest(paper: Paper, count = 4, version = 1): QuizTest {
  const questions: QuizQuestion[] = Array.from({ length: count }, (_, i) => {
    const n = i + 1;
    const q: QuizQuestion = {
      number: n,
      part: 'part',
      prompt: `Question ${n} : que dit le document ?`,
      options: [`Option A${n}`, `Option B${n}`, `Option C${n}`, `Option D${n}`],
      document: null,
      image: null,
      audio: null,
    };
    if (paper === 'reading') {
      if (n === 1) q.document = { title: 'Avis aux résidents', text: 'Ligne un\nLigne deux', image: null };
      if (n === 2) q.document = { title: 'Panneau', text: null, image: { url: `/media/doc2.svg?v=${version}`, alt: 'A parking sign', width: 800, height: 600 } };
      if (n === 3) q.image = { url: `/media/q3.svg?v=${version}`, alt: 'A poster', width: 800, height: 600 };
    } else {
      q.audio = { url: `/media/a${n}.mp3?v=${version}` };
    }
    return q;
  });
  return {
    category: paper,
    id: 1,
    title: paper === 'reading' ? 'Reading Test 1' : 'Listening Test 1',
    timeLimitSeconds: paper === 'reading' ? 3600 : 2400,
    questions,
  };
}
