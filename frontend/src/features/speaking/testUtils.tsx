/** Helpers shared by the speaking screen's unit tests: a topic, the mock API, a fake microphone, the page. */
import { http, HttpResponse } from 'msw';
import { vi } from 'vitest';
import type {
  Catalogue,
  Me,
  SpeakingChatRequest,
  SpeakingReport,
  SpeakingReportRequest,
  SpeakingTopic,
  SpeechRequest,
  TranscriptionRequest,
} from '@/shared/api/types';
import { authValue, meValue, profileValue, renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { SpeakingPage } from './SpeakingPage';
import { speakingKey, type SavedSpeaking } from './storage';

export const ana = { uid: 'u-ana', email: 'ana@example.com' };

export const topic: SpeakingTopic = {
  id: 'serviceCoursLangue',
  number: 1,
  title: 'Cours de langue du soir',
  sectionA: {
    bannerTitle: "Section A – Vous appelez pour obtenir des renseignements sur l'annonce",
    documentContent: "Cours d'espagnol du soir\nPrix : 280 $\nHoraire : mardi et jeudi",
    suggestedQuestions: ['Combien coûte le cours ?', "Quel est l'horaire des cours ?"],
    timeLimitSeconds: 300,
  },
  sectionB: {
    bannerTitle: 'Section B – Vous essayez de convaincre un ami de s’inscrire',
    documentContent: 'Votre ami hésite à suivre le cours avec vous.',
    timeLimitSeconds: 600,
  },
};

export const REPORT_TEXT =
  'Points forts : questions claires.\n\nPoints à améliorer : le vouvoiement.\n\nNiveau CLB Estimé : 7\nNiveau TEF Estimé : B2\nScore : 330/450';

export function reportOf(overrides: Partial<SpeakingReport> = {}): SpeakingReport {
  return {
    report: REPORT_TEXT,
    clb_level: 7,
    tef_level: 'B2',
    score: 330,
    tefNew: { kind: 'score', value: 470, max: 699 },
    speakingCredits: 2,
    ...overrides,
  };
}

export interface Calls {
  chats: SpeakingChatRequest[];
  reports: SpeakingReportRequest[];
  speech: SpeechRequest[];
  transcriptions: TranscriptionRequest[];
}

interface Answers {
  chat?: (body: SpeakingChatRequest) => Response | Promise<Response>;
  report?: (body: SpeakingReportRequest) => Response | Promise<Response>;
  speech?: (body: SpeechRequest) => Response | Promise<Response>;
  transcription?: (body: TranscriptionRequest) => Response | Promise<Response>;
}

const turnsOf = (body: SpeakingChatRequest) => body.messages.filter((m) => m.role === 'user').length;

/** Serves topic 1 (by its id) and the four speaking calls; each answer can be replaced. */
export function serve(answers: Answers = {}): Calls {
  const calls: Calls = { chats: [], reports: [], speech: [], transcriptions: [] };
  server.use(
    http.get('/api/tests/speaking/serviceCoursLangue', () => HttpResponse.json(topic)),
    http.post('/api/openai/speaking-chat', async ({ request }) => {
      const body = (await request.json()) as SpeakingChatRequest;
      calls.chats.push(body);
      if (answers.chat) return answers.chat(body);
      const turns = turnsOf(body);
      const reply = `Réponse ${turns}.` + (turns >= 10 ? '\n\nSESSION TERMINÉE.' : '');
      return HttpResponse.json({ reply, turns, ended: turns >= 10 });
    }),
    http.post('/api/openai/speaking-report', async ({ request }) => {
      const body = (await request.json()) as SpeakingReportRequest;
      calls.reports.push(body);
      return answers.report ? answers.report(body) : HttpResponse.json(reportOf());
    }),
    http.post('/api/openai/text-to-speech', async ({ request }) => {
      const body = (await request.json()) as SpeechRequest;
      calls.speech.push(body);
      return answers.speech ? answers.speech(body) : HttpResponse.json({ audioUrl: '/media/speech/reply.wav?sig=abc' });
    }),
    http.post('/api/transcription', async ({ request }) => {
      const body = (await request.json()) as TranscriptionRequest;
      calls.transcriptions.push(body);
      return answers.transcription ? answers.transcription(body) : HttpResponse.json({ transcription: 'Bonjour, je voudrais des informations.' });
    }),
  );
  return calls;
}

export function catalogue(tests: Catalogue['tests']) {
  server.use(http.get('/api/tests/speaking', () => HttpResponse.json({ category: 'speaking', tests } satisfies Catalogue)));
}

export function renderSpeaking({ path = '/speaking/serviceCoursLangue', me = meValue({ uid: ana.uid }) }: { path?: string; me?: Me | null } = {}) {
  const profile = profileValue(me);
  const routes = [
    { path: '/speaking/:topicId', element: <SpeakingPage /> },
    { path: '/section/:category', element: <p>section page</p> },
  ];
  return { ...renderWithApp(<></>, { path, routes, auth: authValue({ user: ana }), profile }), profile };
}

export const storageKey = speakingKey(ana.uid, 'serviceCoursLangue');

export function seed(saved: Partial<SavedSpeaking>): void {
  const base: SavedSpeaking = {
    section: 'A',
    sessionId: 'seeded-session-1',
    messages: [{ role: 'system', content: topic.sectionA.bannerTitle }],
    remaining: 300,
    ended: false,
    report: null,
  };
  localStorage.setItem(storageKey, JSON.stringify({ ...base, ...saved }));
}

/** `n` finished exchanges after the system message. */
export function exchanges(n: number) {
  const messages: SavedSpeaking['messages'] = [{ role: 'system', content: topic.sectionA.bannerTitle }];
  for (let i = 1; i <= n; i++) {
    messages.push({ role: 'user', content: `Question ${i} ?` }, { role: 'assistant', content: `Réponse ${i}.` });
  }
  return messages;
}

/** A stand-in for MediaRecorder: stop() delivers `payload` (or nothing) and fires onstop. */
export function fakeMicrophone({ payload = 'RIFF-webm-bytes', getUserMedia }: { payload?: string; getUserMedia?: () => Promise<unknown> } = {}) {
  const track = { stop: vi.fn() };
  const stream = { getTracks: () => [track] };
  const recorders: FakeRecorder[] = [];
  class FakeRecorder {
    static isTypeSupported = () => true;
    state: 'inactive' | 'recording' = 'inactive';
    mimeType = 'audio/webm';
    ondataavailable: ((e: { data: Blob }) => void) | null = null;
    onstop: (() => void) | null = null;
    constructor() {
      recorders.push(this);
    }
    start() {
      this.state = 'recording';
    }
    stop() {
      this.state = 'inactive';
      this.ondataavailable?.({ data: new Blob(payload ? [payload] : [], { type: 'audio/webm' }) });
      this.onstop?.();
    }
  }
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  const gum = vi.fn(getUserMedia ?? (() => Promise.resolve(stream)));
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia: gum }, configurable: true });
  return { recorders, getUserMedia: gum, track };
}

export function noMicrophone() {
  vi.stubGlobal('MediaRecorder', undefined);
  Object.defineProperty(navigator, 'mediaDevices', { value: undefined, configurable: true });
}
