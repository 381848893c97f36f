/** Helpers shared by the writing screen's unit tests: a topic, a correction, the mock API, the page. */
import { http, HttpResponse } from 'msw';
import type { CorrectionRequest, Me, WritingCorrection, WritingTopic } from '@/shared/api/types';
import { authValue, meValue, profileValue, renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { WritingPage } from './WritingPage';
import { writingKey, type SavedWriting } from './storage';

export const ana = { uid: 'u-ana', email: 'ana@example.com' };

export const topic: WritingTopic = {
  id: 'writingTest1',
  number: 1,
  slug: 'luckyFind',
  title: 'Une trouvaille inattendue',
  sectionA: {
    id: 'luckyFindA',
    prompt: 'Terminez cet article en ajoutant au moins 80 mots.',
    narrativeStart: 'Hier matin, un promeneur a trouvé un objet étrange sur la plage.',
  },
  sectionB: {
    id: 'luckyFindB',
    statement: '« Les objets trouvés devraient appartenir à ceux qui les trouvent. »',
    prompt: 'Écrivez une lettre au journal pour donner votre opinion (200 mots).',
  },
};

export function correction(overrides: Partial<WritingCorrection> = {}): WritingCorrection {
  return {
    id: 'writing.0001.abc',
    section: 'A',
    topicId: 'writingTest1',
    wordCount: 75,
    corrected_text: 'Les enfants jouaient à la plage.',
    corrections: [{ original_phrase: 'a la plage', corrected_phrase: 'à la plage', explanation: 'La préposition « à » prend un accent.' }],
    general_feedback: 'Bon début.\n\nAttention aux accents.',
    tef_score: 410,
    clb_level: 9,
    tefOld: { kind: 'score', value: 410, max: 450 },
    tefNew: { kind: 'score', value: 540, max: 699 },
    clbText: 'Vous écrivez avec aisance.',
    aiCredits: 2,
    ...overrides,
  };
}

/** `n` words. */
export const words = (n: number) => Array.from({ length: n }, () => 'mot').join(' ');

/** Serves topic 1 (by its slug), and answers corrections with `answer` (default: a correction of the section sent). */
export function serve(answer?: (body: CorrectionRequest) => Response | Promise<Response>) {
  const calls = { corrections: [] as CorrectionRequest[] };
  server.use(
    http.get('/api/tests/writing/luckyFind', () => HttpResponse.json(topic)),
    http.post('/api/openai/tef-correction', async ({ request }) => {
      const body = (await request.json()) as CorrectionRequest;
      calls.corrections.push(body);
      return answer ? answer(body) : HttpResponse.json(correction({ section: body.section }));
    }),
  );
  return calls;
}

export function renderWriting({ path = '/writing/luckyFind', me = meValue({ uid: ana.uid }) }: { path?: string; me?: Me | null } = {}) {
  const profile = profileValue(me);
  const routes = [
    { path: '/writing/:topicId', element: <WritingPage /> },
    { path: '/section/:category', element: <p>section page</p> },
  ];
  return { ...renderWithApp(<></>, { path, routes, auth: authValue({ user: ana }), profile }), profile };
}

export const storageKey = writingKey(ana.uid, 'luckyFind');

export function seed(saved: Partial<SavedWriting>): void {
  const base: SavedWriting = { deadline: Date.now() + 3600_000, drafts: { A: '', B: '' }, results: { A: null, B: null }, active: 'A' };
  localStorage.setItem(storageKey, JSON.stringify({ ...base, ...saved }));
}

export function stored(): SavedWriting | null {
  return JSON.parse(localStorage.getItem(storageKey) ?? 'null') as SavedWriting | null;
}
