import type { Params } from 'react-router';

/** What a route puts in its `handle`: the screen's name for the browser tab, from the route's params. */
export interface RouteHandle {
  title: (params: Params) => string | null;
}

export function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as { title?: unknown }).title === 'function';
}

const CATEGORY_LABELS: Record<string, string> = { reading: 'Reading', listening: 'Listening', writing: 'Writing', speaking: 'Speaking' };
const PAPER_LABELS: Record<string, string> = { reading: 'Reading', listening: 'Listening' };

/** 'Reading', … as the section page reads its category (trimmed, lower-cased); undefined if it is not one. */
const categoryLabel = (raw: string | undefined, labels = CATEGORY_LABELS) => labels[(raw ?? '').trim().toLowerCase()];

/** The title of every screen (route table in routes.tsx). */
export const TITLES = {
  landing: () => null,
  success: () => 'Your Purchase',
  cancel: () => 'Purchase Cancelled',
  section: ({ category }: Params) => {
    const label = categoryLabel(category);
    return label ? `${label} Tests` : 'Practice Section';
  },
  quiz: ({ category, testId = '' }: Params) => {
    const label = categoryLabel(category, PAPER_LABELS);
    return label && /^\d{1,3}$/.test(testId) ? `${label} Test ${Number(testId)}` : 'Practice Test';
  },
  writing: () => 'Writing',
  speaking: () => 'Speaking',
  results: ({ resultId = '' }: Params) => {
    const label = PAPER_LABELS[resultId.split('.')[0] ?? ''];
    return label ? `${label} Results` : 'Test Results';
  },
  tracker: () => 'CLB Progress Tracker',
  dashboard: () => 'My Dashboard',
  zoom: () => 'Image Zoom',
  notFound: () => 'Page Not Found',
} satisfies Record<string, RouteHandle['title']>;
