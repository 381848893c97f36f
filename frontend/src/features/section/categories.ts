/** The four exam papers and what the section page says about each (spec §2). */
export const CATEGORIES = ['reading', 'listening', 'writing', 'speaking'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Trims and lower-cases a route value; null if it is not a category. */
export function parseCategory(raw: string | undefined): Category | null {
  const value = (raw ?? '').trim().toLowerCase();
  return (CATEGORIES as readonly string[]).includes(value) ? (value as Category) : null;
}

export interface CategoryInfo {
  label: string;
  title: string;
  lead: string;
  explainer: string[];
}

export const CATEGORY_INFO: Record<Category, CategoryInfo> = {
  reading: {
    label: 'Reading',
    title: 'Reading Tests',
    lead: 'Compréhension écrite: everyday documents, workplace notices, charts and press articles, as in the real paper.',
    explainer: [
      '40 multiple-choice questions, 4 options each, 1 hour.',
      'Scoring: +1 for a correct answer, 0 for a wrong or unanswered one.',
    ],
  },
  listening: {
    label: 'Listening',
    title: 'Listening Tests',
    lead: 'Compréhension orale: announcements, voicemails, street interviews, radio and reports, in natural spoken French.',
    explainer: [
      '40 multiple-choice questions, 40 min.',
      'Each audio is heard once, as in the exam.',
      'Scoring: +1 for a correct answer, 0 for a wrong or unanswered one.',
    ],
  },
  writing: {
    label: 'Writing',
    title: 'Writing Tests',
    lead: 'Expression écrite: two tasks, corrected line by line by AI, with a TEF score and CLB estimate.',
    explainer: [
      '2 tasks, 60 min.',
      'Section A, 25 min: continue a news article, at least 80 words, at least two paragraphs.',
      'Section B, 35 min: an opinion letter of about 200+ words with at least three arguments.',
    ],
  },
  speaking: {
    label: 'Speaking',
    title: 'Speaking Tests',
    lead: 'Expression orale: role-play with an AI examiner, by typing or by voice, with a written performance report.',
    explainer: [
      '2 tasks, 15 min, recorded face to face; about 10 questions in total.',
      'Section A, 5 min: obtain information about a document such as an advert, formally (vous), after about 1 min of preparation.',
      'Section B, 10 min: convince a friend, informally (tu).',
    ],
  },
};
