import { useCallback, useEffect, useId, useRef, useState, type SyntheticEvent } from 'react';
import { Link } from 'react-router';
import { api, ApiError } from '@/shared/api';
import type {
  ChatMessage,
  SpeakingChatRequest,
  SpeakingChatResponse,
  SpeakingReport,
  SpeakingReportRequest,
  SpeakingSection,
  SpeakingTopic,
  SpeechRequest,
  SpeechResponse,
  TranscriptionRequest,
  TranscriptionResponse,
} from '@/shared/api/types';
import { useAuth } from '@/shared/auth';
import { useProfile } from '@/shared/profile';
import {
  CHAT_FAILED,
  ENDED_BANNER,
  ENDED_PLACEHOLDER,
  formatClock,
  GENERATING_REPORT,
  MAX_TURNS,
  NO_CREDITS,
  RECORDING_LIMIT_S,
  REPORT_FAILED,
  SESSION_ENDED_MARK,
  SPEECH_FAILED,
  TRANSCRIBING,
  TRANSCRIPTION_FAILED,
} from './messages';
import { ReportView } from './ReportView';
import { loadMuted, loadSpeaking, newSessionId, saveMuted, saveSpeaking, speakingKey, type SavedSpeaking } from './storage';
import { toBase64, useRecorder } from './useRecorder';

const SECTIONS: SpeakingSection[] = ['A', 'B'];

type ReportState = { status: 'idle' } | { status: 'generating' } | { status: 'error'; message: string };

/** A problem shown under the input: the text, and the server's own words in smaller print. */
interface Problem {
  message: string;
  detail?: string | undefined;
}

function timeLimit(topic: SpeakingTopic, section: SpeakingSection): number {
  return section === 'A' ? topic.sectionA.timeLimitSeconds : topic.sectionB.timeLimitSeconds;
}

/** A fresh session: the hidden system message only, the full time, a new id (spec §4). */
export function freshSession(topic: SpeakingTopic, section: SpeakingSection): SavedSpeaking {
  const part = section === 'A' ? topic.sectionA : topic.sectionB;
  return {
    section,
    sessionId: newSessionId(),
    messages: [{ role: 'system', content: part.bannerTitle }],
    remaining: timeLimit(topic, section),
    ended: false,
    report: null,
  };
}

const userTurns = (messages: ChatMessage[]) => messages.filter((m) => m.role === 'user').length;
const forServer = (messages: ChatMessage[]) => messages.filter((m) => m.role !== 'system');

/** The reply to the tenth turn ends with 'SESSION TERMINÉE.' (the server adds it; never twice). */
function finishReply(reply: string, last: boolean): string {
  return last && !reply.includes(SESSION_ENDED_MARK) ? `${reply}\n\n${SESSION_ENDED_MARK}` : reply;
}

function MicIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <rect x="9" y="3" width="6" height="11" rx="3" fill="currentColor" />
      <path d="M6 11a6 6 0 0 0 12 0M12 17v4M9 21h6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

function SendIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d="M4 12l16-8-6 16-2.5-6.5z" fill="currentColor" />
    </svg>
  );
}

function SpeakerIcon({ muted }: { muted: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor" />
      {muted ? (
        <path d="M16 9l5 6M21 9l-5 6" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      ) : (
        <path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      )}
    </svg>
  );
}

/** A speaking topic being practised: the document, the examiner, the clock, the microphone and the report. */
export function SpeakingSession({ topic }: { topic: SpeakingTopic }) {
  const { user } = useAuth();
  const { me, refresh } = useProfile();
  const key = speakingKey(user?.uid ?? 'anonymous', topic.id);
  const ids = useId();

  const [saved, setSaved] = useState<SavedSpeaking>(() => loadSpeaking(key) ?? freshSession(topic, 'A'));
  const [input, setInput] = useState('');
  const [pending, setPending] = useState(false);
  const [report, setReport] = useState<ReportState>({ status: 'idle' });
  const [muted, setMuted] = useState(loadMuted);
  const [speechError, setSpeechError] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  // Credits left as the last report said (null: a subscriber); undefined: the profile's.
  const [credits, setCredits] = useState<number | null | undefined>(undefined);

  const audioRef = useRef<HTMLAudioElement>(null);
  const logRef = useRef<HTMLOListElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  // The session answers belong to: a reply to an older session is dropped.
  const sessionRef = useRef(saved.sessionId);
  const mutedRef = useRef(muted);
  const isMuted = () => mutedRef.current;
  const reportedFor = useRef<string | null>(null);

  const { section, sessionId, messages, remaining, ended } = saved;
  const part = section === 'A' ? topic.sectionA : topic.sectionB;
  const turns = userTurns(messages);
  const generating = report.status === 'generating';

  useEffect(() => {
    sessionRef.current = sessionId;
  }, [sessionId]);
  useEffect(() => saveSpeaking(key, saved), [key, saved]);

  const subscriber = me?.subscription.status === 'active' || credits === null;
  const creditsLeft = credits ?? me?.speakingCredits;
  const outOfCredits = !subscriber && creditsLeft === 0 && !ended;

  // ---- The examiner's voice -------------------------------------------------------

  const silence = useCallback(() => {
    const audio = audioRef.current;
    if (audio) {
      audio.pause();
      audio.removeAttribute('src');
    }
    if (typeof window !== 'undefined' && 'speechSynthesis' in window) window.speechSynthesis.cancel();
  }, []);
  useEffect(() => silence, [silence]);

  const speak = useCallback(
    async (text: string, forSection: SpeakingSection) => {
      const spoken = text.replace(SESSION_ENDED_MARK, '').trim();
      if (mutedRef.current || spoken === '') return;
      try {
        const body: SpeechRequest = { text: spoken, section: forSection };
        const forSession = sessionRef.current;
        const { audioUrl } = await api.post<SpeechResponse>('/api/openai/text-to-speech', body);
        const audio = audioRef.current;
        // Muted, or another session started, while the voice was being made: it is not played.
        if (isMuted() || sessionRef.current !== forSession || !audio) return;
        setSpeechError(false);
        audio.src = audioUrl;
        await audio.play();
      } catch (err) {
        // A play() stopped by mute or by a newer reply is not a failure.
        if (err instanceof DOMException && err.name === 'AbortError') return;
        console.error('The examiner could not be heard', err);
        setSpeechError(true);
      }
    },
    [],
  );

  const toggleMute = () => {
    const next = !muted;
    mutedRef.current = next;
    setMuted(next);
    saveMuted(next);
    if (next) silence();
  };

  // ---- The conversation -----------------------------------------------------------

  const blocked = ended || pending || generating || outOfCredits;

  const send = async (raw: string) => {
    const text = raw.trim();
    if (text === '' || blocked) return;
    const sent = sessionId;
    const next: ChatMessage[] = [...messages, { role: 'user', content: text }];
    const last = userTurns(next) >= MAX_TURNS;
    setSaved((s) => ({ ...s, messages: next }));
    setInput('');
    setProblem(null);
    setPending(true);
    try {
      const body: SpeakingChatRequest = { topicId: topic.id, section, sessionId: sent, messages: forServer(next) };
      const res = await api.post<SpeakingChatResponse>('/api/openai/speaking-chat', body);
      if (sessionRef.current !== sent) return;
      const reply = finishReply(res.reply, last || res.ended);
      setSaved((s) => ({ ...s, messages: [...s.messages, { role: 'assistant', content: reply }], ended: s.ended || last || res.ended }));
      void speak(reply, section);
    } catch (err) {
      if (sessionRef.current !== sent) return;
      console.error('The examiner could not answer', err);
      if (err instanceof ApiError && err.fromServer && err.status >= 400 && err.status < 500) {
        // Refused (a message the server will not take, no credits, a locked topic): the turn is not counted.
        setSaved((s) => ({ ...s, messages: s.messages.slice(0, -1) }));
        setInput(text);
        setProblem({ message: err.message });
        if (err.status === 402) setCredits((c) => (c === null ? c : 0));
      } else {
        // Spec §8: the examiner's reply becomes the error text.
        setSaved((s) => ({
          ...s,
          messages: [...s.messages, { role: 'assistant', content: finishReply(CHAT_FAILED, last) }],
          ended: s.ended || last,
        }));
      }
    } finally {
      if (sessionRef.current === sent) setPending(false);
    }
  };

  const sendRef = useRef(send);
  useEffect(() => {
    sendRef.current = send;
  });

  const onSubmit = (e: SyntheticEvent) => {
    e.preventDefault();
    void send(input);
  };

  // The log follows the conversation (inside its own box: the page does not jump).
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages.length, pending]);
  // …and stays on the latest message when the box changes size (a rotated phone, a resized window).
  useEffect(() => {
    const log = logRef.current;
    if (!log || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      log.scrollTop = log.scrollHeight;
    });
    observer.observe(log);
    return () => observer.disconnect();
  }, []);

  // ---- The clock ------------------------------------------------------------------

  const running = !ended && !generating;
  useEffect(() => {
    if (!running) return;
    const id = window.setInterval(() => {
      setSaved((s) => {
        if (s.ended) return s;
        const left = Math.max(0, s.remaining - 1);
        return { ...s, remaining: left, ended: left === 0 };
      });
    }, 1000);
    return () => window.clearInterval(id);
  }, [running, sessionId]);

  // ---- The report: once per session, when it has ended and the last reply is in ----

  const requestReport = useCallback(
    async (s: SavedSpeaking) => {
      const sent = s.sessionId;
      setReport({ status: 'generating' });
      try {
        const body: SpeakingReportRequest = {
          topicId: topic.id,
          section: s.section,
          sessionId: sent,
          conversationHistory: forServer(s.messages),
        };
        const result = await api.post<SpeakingReport>('/api/openai/speaking-report', body);
        if (sessionRef.current !== sent) return;
        setSaved((cur) => (cur.sessionId === sent ? { ...cur, report: result } : cur));
        setCredits(result.speakingCredits);
        setReport({ status: 'idle' });
        void refresh();
      } catch (err) {
        if (sessionRef.current !== sent) return;
        console.error('The report failed', err);
        const message = err instanceof ApiError && err.status === 402 && err.fromServer ? err.message : REPORT_FAILED;
        setReport({ status: 'error', message });
      }
    },
    [topic.id, refresh],
  );

  const hasTurns = turns > 0;
  useEffect(() => {
    if (!ended || pending || saved.report || !hasTurns || reportedFor.current === sessionId) return;
    reportedFor.current = sessionId;
    void requestReport(saved);
  }, [ended, pending, saved, hasTurns, sessionId, requestReport]);

  // ---- The microphone -------------------------------------------------------------

  const transcribe = async (audio: Blob) => {
    const sent = sessionRef.current;
    try {
      const body: TranscriptionRequest = { audio: await toBase64(audio) };
      const { transcription } = await api.post<TranscriptionResponse>('/api/transcription', body);
      if (sessionRef.current !== sent) return;
      const text = typeof transcription === 'string' ? transcription.trim() : '';
      if (text === '') return;
      await sendRef.current(text);
    } catch (err) {
      console.error('The transcription failed', err);
      let detail = err instanceof ApiError && err.fromServer ? err.message : undefined;
      if (detail?.startsWith(TRANSCRIPTION_FAILED)) detail = detail.slice(TRANSCRIPTION_FAILED.length).trim() || undefined;
      setProblem({ message: TRANSCRIPTION_FAILED, detail });
    }
  };
  const recorder = useRecorder(transcribe, (message) => setProblem({ message }));
  const recording = recorder.state === 'recording';
  const transcribing = recorder.state === 'processing';

  const startRecording = () => {
    setProblem(null);
    // The examiner stops talking while the learner speaks.
    silence();
    void recorder.start(!ended && !generating && !outOfCredits);
  };

  // ---- Sections -------------------------------------------------------------------

  const selectSection = (next: SpeakingSection) => {
    silence();
    const fresh = freshSession(topic, next);
    sessionRef.current = fresh.sessionId;
    setSaved(fresh);
    setInput('');
    setPending(false);
    setReport({ status: 'idle' });
    setProblem(null);
    setSpeechError(false);
  };
  const switchLocked = recording || transcribing || generating;

  const placeholder = ended
    ? ENDED_PLACEHOLDER
    : outOfCredits
      ? NO_CREDITS
      : section === 'A'
        ? 'Posez votre question…'
        : 'Écrivez votre message…';
  const hasText = input.trim() !== '';
  const inputDisabled = ended || outOfCredits || generating;
  const questions = section === 'A' ? topic.sectionA.suggestedQuestions : [];

  return (
    <section className="page speaking-page" aria-labelledby={`${ids}-title`} lang="fr">
      <header className="speaking-head">
        <Link to="/section/speaking" className="speaking-back">
          ← Tous les sujets
        </Link>
        <span className="pill">Expression orale</span>
      </header>

      <div className="speaking-layout">
        <div className="speaking-doc">
          <h1 id={`${ids}-title`} className="speaking-title">
            {topic.title}
          </h1>
          <div className="card speaking-document">
            <p className="speaking-kicker">{section === 'A' ? 'Document (Section A)' : 'Document (Section B)'}</p>
            <div className="speaking-document-text">{part.documentContent}</div>
          </div>
        </div>

        <div className="speaking-work">
          <div className="speaking-controls">
            <div className="speaking-switch" role="group" aria-label="Section">
              {SECTIONS.map((s) => (
                <button
                  key={s}
                  type="button"
                  className={`speaking-switch-btn${s === section ? ' is-active' : ''}`}
                  aria-pressed={s === section}
                  disabled={s === section || switchLocked}
                  onClick={() => selectSection(s)}
                >
                  Section {s}
                </button>
              ))}
            </div>
            <button type="button" className="btn btn-secondary btn-sm speaking-mute" aria-pressed={muted} onClick={toggleMute}>
              <SpeakerIcon muted={muted} />
              {muted ? 'Son coupé' : 'Son activé'}
            </button>
          </div>

          <p className="speaking-banner">{part.bannerTitle}</p>

          <div className="speaking-status">
            <p className={`speaking-timer${remaining <= 30 && !ended ? ' is-urgent' : ''}`}>Temps restant : {formatClock(remaining)}</p>
            <p className="speaking-turns">
              Tour de parole (utilisateur) : {turns} / {MAX_TURNS}
            </p>
          </div>

          {speechError && (
            <p className="speaking-alert" role="alert">
              {SPEECH_FAILED}
            </p>
          )}
          {ended && (
            <p className="speaking-ended" role="status">
              {ENDED_BANNER}
            </p>
          )}

          {questions.length > 0 && (
            <div className="speaking-questions">
              <label htmlFor={`${ids}-questions`}>Questions suggérées</label>
              <select
                id={`${ids}-questions`}
                value=""
                disabled={inputDisabled}
                onChange={(e) => {
                  if (!e.target.value) return;
                  setInput(e.target.value);
                  inputRef.current?.focus();
                }}
              >
                <option value="" disabled>
                  Choisissez une question...
                </option>
                {questions.map((q) => (
                  <option key={q} value={q}>
                    {q}
                  </option>
                ))}
              </select>
            </div>
          )}

          <ol className="speaking-log" ref={logRef} aria-label="Conversation" aria-live="polite">
            {messages.map((m, i) =>
              m.role === 'system' ? null : (
                <li key={i} className={`speaking-msg is-${m.role}`}>
                  <span className="speaking-msg-who">{m.role === 'user' ? 'Vous' : 'Examinateur'}</span>
                  <span className="speaking-msg-text">{m.content}</span>
                </li>
              ),
            )}
            {pending && (
              <li className="speaking-msg is-assistant is-typing">
                <span className="speaking-msg-who">Examinateur</span>
                <span className="speaking-msg-text">
                  <span aria-hidden="true">…</span>
                  <span className="sr-only">L’examinateur répond.</span>
                </span>
              </li>
            )}
            {turns === 0 && !pending && (
              <li className="speaking-log-empty">
                {section === 'A'
                  ? 'Vous appelez pour vous renseigner sur l’annonce : posez votre première question (vouvoiement).'
                  : 'Convainquez votre ami de participer : commencez la conversation (tutoiement).'}
              </li>
            )}
          </ol>

          {recording || transcribing ? (
            <div className="speaking-recorder" role="group" aria-label="Enregistrement">
              {recording ? (
                <>
                  <span className="speaking-rec-dot" aria-hidden="true" />
                  <div
                    className="speaking-rec-bar"
                    role="progressbar"
                    aria-label="Durée de l’enregistrement"
                    aria-valuemin={0}
                    aria-valuemax={RECORDING_LIMIT_S}
                    aria-valuenow={recorder.elapsed}
                  >
                    <span style={{ width: `${(recorder.elapsed / RECORDING_LIMIT_S) * 100}%` }} />
                  </div>
                  <span className="speaking-rec-time">{formatClock(recorder.elapsed)}</span>
                  <button type="button" className="btn btn-secondary btn-sm" onClick={recorder.cancel}>
                    Annuler
                  </button>
                  <button type="button" className="btn btn-accent btn-sm" onClick={recorder.finish}>
                    Arrêter et envoyer
                  </button>
                </>
              ) : (
                <p className="speaking-transcribing" role="status">
                  <span className="btn-spinner" aria-hidden="true" />
                  {TRANSCRIBING}
                </p>
              )}
            </div>
          ) : (
            <form className="speaking-input" onSubmit={onSubmit}>
              <label htmlFor={`${ids}-input`} className="sr-only">
                Votre message
              </label>
              <textarea
                id={`${ids}-input`}
                ref={inputRef}
                rows={2}
                value={input}
                placeholder={placeholder}
                disabled={inputDisabled}
                onChange={(e) => setInput(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                    e.preventDefault();
                    void send(input);
                  }
                }}
              />
              {hasText ? (
                <button type="submit" className="btn btn-accent speaking-action" aria-label="Envoyer" disabled={blocked}>
                  <SendIcon />
                </button>
              ) : (
                <button
                  type="button"
                  className="btn btn-primary speaking-action"
                  aria-label="Parler (enregistrer)"
                  disabled={inputDisabled || pending}
                  onClick={startRecording}
                >
                  <MicIcon />
                </button>
              )}
            </form>
          )}

          {problem && (
            <div className="speaking-alert" role="alert">
              <p>{problem.message}</p>
              {problem.detail && <p className="speaking-alert-detail">{problem.detail}</p>}
            </div>
          )}

          {me && !subscriber && creditsLeft !== undefined && (
            <p className="speaking-credits" lang="en">
              Speaking Practice Credits left: {creditsLeft}
            </p>
          )}
          {outOfCredits && (
            <p className="speaking-plans">
              <Link to="/#pricing" className="btn btn-secondary btn-sm">
                Voir les formules
              </Link>
            </p>
          )}
        </div>
      </div>

      <section className="card speaking-feedback" aria-labelledby={`${ids}-feedback`}>
        <h2 id={`${ids}-feedback`} className="speaking-feedback-title">
          Feedback de Performance
        </h2>
        {saved.report ? (
          <ReportView result={saved.report} />
        ) : report.status === 'generating' ? (
          <p className="speaking-muted" role="status">
            <span className="btn-spinner" aria-hidden="true" />
            {GENERATING_REPORT}
          </p>
        ) : report.status === 'error' ? (
          <div>
            <p className="error-text" role="alert">
              {report.message}
            </p>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => void requestReport(saved)}>
              Réessayer
            </button>
          </div>
        ) : ended && !hasTurns ? (
          <p className="speaking-muted">Le temps est écoulé avant votre premier tour de parole : aucun rapport, aucun crédit utilisé.</p>
        ) : (
          <p className="speaking-muted">Le rapport apparaîtra ici à la fin de la session (10 tours de parole ou fin du temps).</p>
        )}
        {ended && !generating && (
          <button type="button" className="btn btn-primary speaking-restart" onClick={() => selectSection(section)}>
            Recommencer la section {section}
          </button>
        )}
      </section>

      {/* The examiner's voice: one element, so that mute can stop it. */}
      <audio ref={audioRef} className="speaking-audio" preload="none" />
    </section>
  );
}
