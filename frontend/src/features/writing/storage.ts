import type { WritingCorrection, WritingSection } from '@/shared/api/types';

/**
 * A writing session on this device (localStorage), per user and topic, so that a reload loses
 * nothing (decisions §5): both drafts, the last correction of each section, the open tab, and
 * the deadline. The deadline is absolute: time runs while the page is closed, as in the quiz.
 */
export interface SavedWriting {
  /** When time runs out, ms since the epoch. */
  deadline: number;
  drafts: Record<WritingSection, string>;
  results: Record<WritingSection, WritingCorrection | null>;
  active: WritingSection;
}

/** The writing task's time limit (spec §9: 3600 s for both sections). */
export const TIME_LIMIT_MS = 3600_000;

const VERSION = 1;

export function writingKey(uid: string, topic: string): string {
  return `tef.writing.v${VERSION}:${uid}:${topic}`;
}

export function freshWriting(now: number, active: WritingSection = 'A'): SavedWriting {
  return { deadline: now + TIME_LIMIT_MS, drafts: { A: '', B: '' }, results: { A: null, B: null }, active };
}

const isSection = (v: unknown): v is WritingSection => v === 'A' || v === 'B';

/** A stored correction, if it has what the screen shows. */
function readResult(v: unknown): WritingCorrection | null {
  if (typeof v !== 'object' || v === null) return null;
  const r = v as Partial<WritingCorrection>;
  const ok =
    Array.isArray(r.corrections) &&
    typeof r.corrected_text === 'string' &&
    typeof r.general_feedback === 'string' &&
    typeof r.clb_level === 'number' &&
    typeof r.tefOld === 'object' &&
    typeof r.tefNew === 'object';
  return ok ? (v as WritingCorrection) : null;
}

function readStorage(key: string): Record<string, unknown> | null {
  try {
    const raw = localStorage.getItem(key);
    if (!raw) return null;
    const v = JSON.parse(raw) as unknown;
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The stored session, or null if none (or unreadable). */
export function loadWriting(key: string): SavedWriting | null {
  const v = readStorage(key);
  if (!v) return null;
  const { deadline, drafts, results, active } = v;
  if (typeof deadline !== 'number' || !Number.isFinite(deadline)) return null;
  const d = (typeof drafts === 'object' && drafts !== null ? drafts : {}) as Record<string, unknown>;
  const r = (typeof results === 'object' && results !== null ? results : {}) as Record<string, unknown>;
  return {
    deadline,
    drafts: { A: typeof d.A === 'string' ? d.A : '', B: typeof d.B === 'string' ? d.B : '' },
    results: { A: readResult(r.A), B: readResult(r.B) },
    active: isSection(active) ? active : 'A',
  };
}

/** The tab the stored session had open (for the loading message), 'A' by default. */
export function storedActive(key: string): WritingSection {
  const active = readStorage(key)?.active;
  return isSection(active) ? active : 'A';
}

export function saveWriting(key: string, saved: SavedWriting): void {
  try {
    localStorage.setItem(key, JSON.stringify(saved));
  } catch (err) {
    // Storage full or disabled: the session still runs, it just won't survive a reload.
    console.warn('Could not save the writing session on this device', err);
  }
}

// ---- Display preferences (one set for the device) -----------------------------

export interface WritingPrefs {
  /** The text area's font size in px, 12 to 30 (spec: default 18). */
  fontSize: number;
  dark: boolean;
}

export const FONT_MIN = 12;
export const FONT_MAX = 30;
export const DEFAULT_PREFS: WritingPrefs = { fontSize: 18, dark: false };
const PREFS_KEY = 'tef.writing.prefs.v1';

export function loadPrefs(): WritingPrefs {
  const v = readStorage(PREFS_KEY);
  if (!v) return DEFAULT_PREFS;
  const size = v.fontSize;
  return {
    fontSize:
      typeof size === 'number' && Number.isFinite(size) ? Math.min(FONT_MAX, Math.max(FONT_MIN, Math.round(size))) : DEFAULT_PREFS.fontSize,
    dark: v.dark === true,
  };
}

export function savePrefs(prefs: WritingPrefs): void {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
  } catch {
    // Not remembered on this device; the choice still applies now.
  }
}
