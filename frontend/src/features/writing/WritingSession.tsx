import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { api, ApiError } from '@/shared/api';
import type { CorrectionRequest, WritingCorrection, WritingSection, WritingTopic } from '@/shared/api/types';
import { useAuth } from '@/shared/auth';
import { useProfile } from '@/shared/profile';
import { Modal } from '@/shared/ui/Modal';
import { SectionPanel, type CorrectionFailure } from './SectionPanel';
import {
  FONT_MAX,
  FONT_MIN,
  freshWriting,
  loadPrefs,
  loadWriting,
  savePrefs,
  saveWriting,
  writingKey,
  type SavedWriting,
  type WritingPrefs,
} from './storage';
import { validationMessage } from './words';
import { WritingTimer } from './WritingTimer';

const SECTIONS: WritingSection[] = ['A', 'B'];

export const CORRECTION_FAILED = 'Erreur lors de la récupération de la correction. Veuillez réessayer.';
export const NOT_SIGNED_IN = 'Vous devez être connecté.';

/**
 * What the learner reads when a correction fails (spec §8): the server's own words for what
 * they can act on (word count, credits, hourly limit, locked topic, size), else the generic line.
 */
export function correctionError(err: unknown): CorrectionFailure {
  if (err instanceof ApiError) {
    // No credits left (402) or a topic outside the plan (403): the plans are the way on.
    const plans = err.status === 402 || err.status === 403;
    if (err.status === 401) return { message: NOT_SIGNED_IN, plans };
    if (err.fromServer && err.status >= 400 && err.status < 500) return { message: err.message, plans };
  }
  return { message: CORRECTION_FAILED, plans: false };
}

/** The session to continue: the stored one, or a fresh one whose clock starts now. */
function startSession(key: string, now: number): SavedWriting {
  const saved = loadWriting(key);
  if (!saved) return freshWriting(now);
  const untouched = saved.drafts.A.trim() === '' && saved.drafts.B.trim() === '' && !saved.results.A && !saved.results.B;
  // Out of time with nothing written: a forgotten tab, not work to keep. Start afresh.
  if (saved.deadline <= now && untouched) return freshWriting(now, saved.active);
  return saved;
}

type PerSection<T> = Record<WritingSection, T>;

/** A writing topic being worked on: both tasks, one clock, corrections kept per section. */
export function WritingSession({ topic }: { topic: WritingTopic }) {
  const { user } = useAuth();
  const { me, refresh } = useProfile();
  const key = writingKey(user?.uid ?? 'anonymous', topic.slug);
  const ids = useId();

  const [saved, setSaved] = useState<SavedWriting>(() => startSession(key, Date.now()));
  const [now, setNow] = useState(() => Date.now());
  const [prefs, setPrefs] = useState<WritingPrefs>(loadPrefs);
  const [running, setRunning] = useState<PerSection<boolean>>({ A: false, B: false });
  const [errors, setErrors] = useState<PerSection<CorrectionFailure | null>>({ A: null, B: null });
  // Credits left as the last correction reported them (null: a subscriber); undefined: the profile's.
  const [credits, setCredits] = useState<number | null | undefined>(undefined);
  const [confirmingReset, setConfirmingReset] = useState(false);
  const tabRefs = useRef<PerSection<HTMLButtonElement | null>>({ A: null, B: null });
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // Every change is on this device at once.
  useEffect(() => saveWriting(key, saved), [key, saved]);
  useEffect(() => savePrefs(prefs), [prefs]);

  // The clock: one tick each time the shown second changes, until 0.
  const { deadline } = saved;
  useEffect(() => {
    if (now >= deadline) return;
    const left = deadline - Date.now();
    const id = window.setTimeout(() => setNow(Date.now()), left <= 0 ? 0 : left % 1000 || 1000);
    return () => window.clearTimeout(id);
  }, [now, deadline]);
  const remaining = Math.max(0, Math.ceil((deadline - now) / 1000));
  const timeUp = remaining === 0;

  const setDraft = useCallback((section: WritingSection, text: string) => {
    setSaved((s) => ({ ...s, drafts: { ...s.drafts, [section]: text } }));
    setErrors((e) => (e[section] === null ? e : { ...e, [section]: null }));
  }, []);

  const select = (section: WritingSection, focus = false) => {
    setSaved((s) => (s.active === section ? s : { ...s, active: section }));
    if (focus) tabRefs.current[section]?.focus();
  };

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const index = SECTIONS.indexOf(saved.active);
    let next: WritingSection | undefined;
    if (e.key === 'ArrowRight') next = SECTIONS[(index + 1) % SECTIONS.length];
    else if (e.key === 'ArrowLeft') next = SECTIONS[(index - 1 + SECTIONS.length) % SECTIONS.length];
    else if (e.key === 'Home') next = SECTIONS[0];
    else if (e.key === 'End') next = SECTIONS[SECTIONS.length - 1];
    if (!next) return;
    e.preventDefault();
    select(next, true);
  };

  const submit = (section: WritingSection) => {
    const text = saved.drafts[section];
    if (running[section] || validationMessage(section, text) !== null) return;
    setRunning((r) => ({ ...r, [section]: true }));
    setErrors((e) => ({ ...e, [section]: null }));
    const body: CorrectionRequest = { studentText: text, section, topicId: topic.slug };
    api
      .post<WritingCorrection>('/api/openai/tef-correction', body)
      .then((result) => {
        if (!mounted.current) {
          // The learner left meanwhile: keep the correction for their return.
          const stored = loadWriting(key);
          if (stored) saveWriting(key, { ...stored, results: { ...stored.results, [section]: result } });
          return;
        }
        setSaved((s) => ({ ...s, results: { ...s.results, [section]: result } }));
        setCredits(result.aiCredits);
        void refresh();
      })
      .catch((err: unknown) => {
        console.error('The correction failed', err);
        setErrors((e) => ({ ...e, [section]: correctionError(err) }));
      })
      .finally(() => setRunning((r) => ({ ...r, [section]: false })));
  };

  const cancelReset = useCallback(() => setConfirmingReset(false), []);
  const reset = () => {
    const t = Date.now();
    setSaved(freshWriting(t, saved.active));
    setNow(t);
    setErrors({ A: null, B: null });
    setConfirmingReset(false);
  };

  const subscriber = me?.subscription.status === 'active' || credits === null;
  const creditsLeft = credits ?? me?.aiCredits;

  return (
    <section className={`page writing-page${prefs.dark ? ' is-dark' : ''}`} aria-labelledby={`${ids}-title`} lang="fr">
      <header className="writing-head">
        <Link to="/section/writing" className="writing-back">
          ← Tous les sujets
        </Link>
        <span className="pill">Expression écrite</span>
        <h1 id={`${ids}-title`} className="writing-title">
          Sujet {topic.number} : {topic.title}
        </h1>
      </header>

      <div className="writing-bar">
        <WritingTimer remaining={remaining} />
        {me && !subscriber && creditsLeft !== undefined && (
          <p className="writing-credits" lang="en">
            AI Analysis Credits: {creditsLeft}
          </p>
        )}
      </div>

      <div className="writing-settings">
        <div className="writing-setting">
          <label htmlFor={`${ids}-size`}>Taille du texte</label>
          <input
            id={`${ids}-size`}
            type="range"
            min={FONT_MIN}
            max={FONT_MAX}
            step={1}
            value={prefs.fontSize}
            aria-valuetext={`${prefs.fontSize} pixels`}
            onChange={(e) => setPrefs((p) => ({ ...p, fontSize: Number(e.target.value) }))}
          />
          <output htmlFor={`${ids}-size`} className="writing-size-value">
            {prefs.fontSize} px
          </output>
        </div>
        <label className="writing-setting writing-switch">
          <input type="checkbox" role="switch" checked={prefs.dark} onChange={(e) => setPrefs((p) => ({ ...p, dark: e.target.checked }))} />
          Mode sombre
        </label>
        <button type="button" className="btn btn-secondary btn-sm writing-reset" onClick={() => setConfirmingReset(true)}>
          Recommencer
        </button>
      </div>

      {timeUp && (
        <p className="notice writing-timeup" role="status">
          Le temps est écoulé. Vos textes ne peuvent plus être modifiés, mais vous pouvez encore les soumettre s’ils respectent le nombre
          de mots. Pour repartir de zéro, choisissez « Recommencer ».
        </p>
      )}

      <div className="writing-tabs" role="tablist" aria-label="Sections de l’épreuve">
        {SECTIONS.map((s) => (
          <button
            key={s}
            ref={(el) => {
              tabRefs.current[s] = el;
            }}
            type="button"
            role="tab"
            id={`${ids}-tab-${s}`}
            className="writing-tab"
            aria-selected={saved.active === s}
            aria-controls={`${ids}-panel-${s}`}
            tabIndex={saved.active === s ? 0 : -1}
            onClick={() => select(s)}
            onKeyDown={onTabKey}
          >
            Section {s}
            {saved.results[s] && ' '}
            {saved.results[s] && (
              <span className="writing-tab-done">
                <span aria-hidden="true">✓</span>
                <span className="sr-only">(corrigée)</span>
              </span>
            )}
          </button>
        ))}
      </div>

      {SECTIONS.map((s) => (
        <div
          key={s}
          role="tabpanel"
          id={`${ids}-panel-${s}`}
          aria-labelledby={`${ids}-tab-${s}`}
          className="writing-panel"
          hidden={saved.active !== s}
        >
          <SectionPanel
            section={s}
            topic={topic}
            text={saved.drafts[s]}
            onTextChange={(text) => setDraft(s, text)}
            result={saved.results[s]}
            timeUp={timeUp}
            fontSize={prefs.fontSize}
            running={running[s]}
            error={errors[s]}
            onSubmit={() => submit(s)}
          />
        </div>
      ))}

      {confirmingReset && (
        <Modal
          title="Recommencer ce sujet ?"
          onDismiss={cancelReset}
          actions={
            <>
              <button type="button" className="btn btn-secondary" onClick={cancelReset}>
                Annuler
              </button>
              <button type="button" className="btn btn-accent" onClick={reset}>
                Tout effacer
              </button>
            </>
          }
        >
          <p>Vos textes et les corrections des sections A et B seront effacés de cet appareil, et le minuteur repartira de 60:00.</p>
        </Modal>
      )}
    </section>
  );
}
