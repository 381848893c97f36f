/** Shapes of the server's answers (functions in shared/src/api on the server). */
export type SubscriptionStatus = 'none' | 'active' | 'expired';

export interface Subscription {
  status: SubscriptionStatus;
  /** 'No Subscription', 'Active' or 'Expired'. */
  label: string;
  plan: string | null;
  /** RFC 3339, or null without a subscription. */
  endDate: string | null;
  daysLeft: number | null;
}

export interface Me {
  uid: string;
  email: string | null;
  /** False until the user document exists. */
  registered: boolean;
  acceptedPrivacyPolicy: boolean;
  aiCredits: number;
  speakingCredits: number;
  subscription: Subscription;
}

/** A plan as the server sells it (GET /api/plans). Prices are in minor units. */
export interface Plan {
  id: 'free' | 'monthly' | 'quarterly';
  name: string;
  priceCents: number;
  currency: string;
  /** Days of access; null for the free plan. */
  days: number | null;
  /** The card provider's price id; null for the free plan, or when it is not configured. */
  priceId: string | null;
}

// ---- Payments -----------------------------------------------------------------

/** POST /api/stripe/create-checkout-session. `userId` must be the caller's uid. */
export interface CheckoutRequest {
  priceId: string;
  userId: string;
  email: string | null;
}

/** The answer: the checkout page to go to. Errors come as `{error}` (409 when already subscribed). */
export interface CheckoutResponse {
  url: string;
}

/** GET /api/stripe/checkout-session?sessionId=: the caller's own session (404 otherwise). */
export interface CheckoutSession {
  /** Minor units (3400 is 34.00). */
  amount_total: number;
  /** Lower case, 'cad'. */
  currency: string;
  /** When true, the purchase is already fulfilled: GET /api/me shows the subscription. */
  paid: boolean;
}

// ---- Exams (reading and listening) ------------------------------------------

export type Category = 'reading' | 'listening' | 'writing' | 'speaking';
export type Paper = 'reading' | 'listening';

/** GET /api/tests/{category}: the ten test slots and what this user may open. */
export interface CatalogueEntry {
  id: number;
  title: string;
  /** True when the user's plan does not include this test (free users: tests 2 to 10). */
  locked: boolean;
  /** False while the test's content is not published yet. */
  available: boolean;
  /** Writing and speaking topics: the name used in links (`/writing/luckyFind`, `/speaking/serviceCoursLangue`). */
  slug?: string;
}

export interface Catalogue {
  category: Category;
  tests: CatalogueEntry[];
}

/** A signed, short-lived media link. */
export interface MediaImage {
  url: string;
  alt: string;
  width: number;
  height: number;
}

export interface QuestionDocument {
  title: string | null;
  /** French text; paragraphs separated by a blank line, single line breaks kept (white-space: pre-line). */
  text: string | null;
  image: MediaImage | null;
}

/** A question as the quiz shows it: no key, no explanation, no transcript. */
export interface QuizQuestion {
  number: number;
  part: string;
  prompt: string;
  options: string[];
  document: QuestionDocument | null;
  image: MediaImage | null;
  audio: { url: string } | null;
}

/** GET /api/tests/{category}/{id} (403 when locked, 404 when unknown). */
export interface QuizTest {
  category: Paper;
  id: number;
  title: string;
  timeLimitSeconds: number;
  questions: QuizQuestion[];
}

/** POST /api/tests/{category}/{id}/attempts. `answers[i]` is the chosen option index of question i+1, or null. */
export interface AttemptRequest {
  answers: (number | null)[];
  durationSeconds: number;
  /** Names the attempt (8–64 letters, digits, dashes): a resent submission returns the first result. */
  attemptId?: string;
}

export type TefScore = { kind: 'score'; value: number; max: number } | { kind: 'below'; below: number; max: number };

export interface TranscriptLine {
  /** 'Femme', 'Homme', 'Narrateur', … */
  speaker: string;
  text: string;
}

export interface ReviewedQuestion extends QuizQuestion {
  yourAnswer: string | null;
  correctAnswer: string;
  correct: boolean;
  explanation: string;
  /** Listening only. */
  transcript: TranscriptLine[] | null;
}

/** The graded attempt: the answer to POST …/attempts, and GET /api/results/{id}. */
export interface AttemptResult {
  resultId: string;
  quizId: string;
  category: Paper;
  testId: number;
  title: string;
  score: number;
  total: number;
  percent: number;
  durationSeconds: number;
  /** 3 means "CLB 3 or below". */
  clb: number;
  /** Old scale: reading /300, listening /360. */
  tefOld: TefScore;
  /** 0–699 scale (tests since December 2023). */
  tefNew: TefScore;
  /** Whole percent of other learners' first attempts at this paper that scored lower; null until 30 exist. */
  exceedsPercent: number | null;
  /**
   * The paper was revised after this attempt: the score stands, and the review shows the current
   * questions without the learner's answers (they were option numbers in the old paper).
   */
  paperChanged: boolean;
  timestamp: string;
  questions: ReviewedQuestion[];
}

export type Skill = 'listening' | 'reading' | 'speaking' | 'writing';

export interface ProgressPoint {
  resultId: string;
  timestamp: string;
  clb: number;
  score: number;
  total: number;
  testId: number;
}

/** GET /api/progress: up to 5 latest sessions per skill, oldest to newest. */
export interface Progress {
  skills: Record<Skill, ProgressPoint[]>;
  /** The lowest of the skills' latest CLB, over the skills that have results; null when none has. */
  overallClb: number | null;
  /** How many of the four skills have at least one result. */
  skillsWithResults: number;
}

// ---- Writing -------------------------------------------------------------------

export type WritingSection = 'A' | 'B';

/** GET /api/tests/writing/{topicId} (slug, number or writingTestN; 403 when locked, 404 when unknown). */
export interface WritingTopic {
  /** 'writingTest1'. */
  id: string;
  number: number;
  /** 'luckyFind'. */
  slug: string;
  title: string;
  /** Continue a press article: `narrativeStart` is its beginning. */
  sectionA: { id: string; prompt: string; narrativeStart: string };
  /** An opinion letter about `statement` (a quote, « … »). */
  sectionB: { id: string; statement: string; prompt: string };
}

/** POST /api/openai/tef-correction. `topicId` is the topic's slug. */
export interface CorrectionRequest {
  studentText: string;
  section: WritingSection;
  topicId: string;
}

export interface CorrectionItem {
  original_phrase: string;
  corrected_phrase: string;
  explanation: string;
}

/** The answer to POST /api/openai/tef-correction. */
export interface WritingCorrection {
  id: string;
  section: WritingSection;
  /** 'writingTest1'. */
  topicId: string;
  wordCount: number;
  corrected_text: string;
  corrections: CorrectionItem[];
  /** Paragraphs separated by a blank line. */
  general_feedback: string;
  /** Out of 450. */
  tef_score: number;
  clb_level: number;
  /** Old scale, writing /450. */
  tefOld: TefScore;
  /** 0–699 scale. */
  tefNew: TefScore;
  /** What the level means, in French. */
  clbText: string;
  /** Credits left after this correction; null for subscribers. */
  aiCredits: number | null;
}

// ---- Speaking ------------------------------------------------------------------

export type SpeakingSection = 'A' | 'B';

/** GET /api/tests/speaking/{topicId} (id such as serviceCoursLangue, or the number; 403 when locked, 404 when unknown). */
export interface SpeakingTopic {
  /** 'serviceCoursLangue'. */
  id: string;
  number: number;
  title: string;
  /** Obtain information about an advert (formal, vous). */
  sectionA: {
    bannerTitle: string;
    /** The advert; lines separated by \n. */
    documentContent: string;
    suggestedQuestions: string[];
    timeLimitSeconds: number;
  };
  /** Convince a hesitant friend (informal, tu). */
  sectionB: { bannerTitle: string; documentContent: string; timeLimitSeconds: number };
}

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

/** POST /api/openai/speaking-chat: the conversation so far, ending with the learner's new turn. */
export interface SpeakingChatRequest {
  topicId: string;
  section: SpeakingSection;
  /** 8 to 64 letters, digits or dashes; one per session. */
  sessionId: string;
  messages: ChatMessage[];
}

export interface SpeakingChatResponse {
  /** The reply to the tenth turn already ends with '\n\nSESSION TERMINÉE.'. */
  reply: string;
  /** The learner's turns so far. */
  turns: number;
  ended: boolean;
}

/** POST /api/openai/speaking-report: idempotent per session id (a retry returns the same report, no second credit). */
export interface SpeakingReportRequest {
  topicId: string;
  section: SpeakingSection;
  sessionId: string;
  conversationHistory: ChatMessage[];
}

export interface SpeakingReport {
  /** French text ending with the 'Niveau CLB Estimé', 'Niveau TEF Estimé' and 'Score : N/450' lines. */
  report: string;
  clb_level: number;
  /** A1 … C2. */
  tef_level: string;
  /** Out of 450. */
  score: number;
  /** 0–699 scale. */
  tefNew: TefScore;
  /** Credits left after this session; null for subscribers. */
  speakingCredits: number | null;
}

/** POST /api/openai/text-to-speech: the examiner's voice for a reply. */
export interface SpeechRequest {
  text: string;
  section: SpeakingSection;
}

export interface SpeechResponse {
  /** A signed link to a WAV file. */
  audioUrl: string;
}

/** POST /api/transcription: base64 of a webm recording. */
export interface TranscriptionRequest {
  audio: string;
}

export interface TranscriptionResponse {
  transcription: string;
}
