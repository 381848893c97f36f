import type { ChatMessage, SpeakingReport, SpeakingSection } from '@/shared/api/types';

/**
 * A speaking session on this device (localStorage), per user and topic, so that a reload keeps
 * the conversation, the time left and the report. One session per topic: choosing a section
 * starts a new one (spec §4).
 */
export interface SavedSpeaking {
  section: SpeakingSection;
  sessionId: string;
  /** The conversation, starting with the hidden system message. */
  messages: ChatMessage[];
  /** Seconds left on the clock. */
  remaining: number;
  ended: boolean;
  report: SpeakingReport | null;
}

const VERSION = 1;

export function speakingKey(uid: string, topic: string): string {
  return `tef.speaking.v${VERSION}:${uid}:${topic}`;
}

/** A new session id: 8 to 64 letters, digits or dashes, as the server wants. */
export function newSessionId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `s-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

const isSection = (v: unknown): v is SpeakingSection => v === 'A' || v === 'B';

function isMessage(v: unknown): v is ChatMessage {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Partial<ChatMessage>;
  return (m.role === 'system' || m.role === 'user' || m.role === 'assistant') && typeof m.content === 'string';
}

function readReport(v: unknown): SpeakingReport | null {
  if (typeof v !== 'object' || v === null) return null;
  const r = v as Partial<SpeakingReport>;
  return typeof r.report === 'string' && typeof r.clb_level === 'number' && typeof r.score === 'number' ? (v as SpeakingReport) : null;
}

/** The stored session, or null if none (or unreadable). */
export function loadSpeaking(key: string): SavedSpeaking | null {
  try {
    const raw = localStorage.getItem(key);
    if (!raw) return null;
    const v = JSON.parse(raw) as Record<string, unknown> | null;
    if (typeof v !== 'object' || v === null) return null;
    const { section, sessionId, messages, remaining, ended, report } = v;
    if (!isSection(section) || typeof sessionId !== 'string' || !Array.isArray(messages) || !messages.every(isMessage)) return null;
    if (typeof remaining !== 'number' || !Number.isFinite(remaining)) return null;
    return { section, sessionId, messages, remaining: Math.max(0, Math.round(remaining)), ended: ended === true, report: readReport(report) };
  } catch {
    return null;
  }
}

export function saveSpeaking(key: string, saved: SavedSpeaking): void {
  try {
    localStorage.setItem(key, JSON.stringify(saved));
  } catch (err) {
    console.warn('Could not save the speaking session on this device', err);
  }
}

const PREFS_KEY = 'tef.speaking.prefs.v1';

/** Whether the examiner's voice is muted (one setting for the device). */
export function loadMuted(): boolean {
  try {
    return (JSON.parse(localStorage.getItem(PREFS_KEY) ?? '{}') as { muted?: unknown }).muted === true;
  } catch {
    return false;
  }
}

export function saveMuted(muted: boolean): void {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify({ muted }));
  } catch {
    // Not remembered on this device; the choice still applies now.
  }
}
