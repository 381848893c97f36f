import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, ApiError } from '@/shared/api';
import type { Catalogue, SpeakingTopic } from '@/shared/api/types';
import { MISSING_CONTENT, MISSING_TITLE, NO_TOPIC_TEXT, NO_TOPIC_TITLE } from './messages';
import { SpeakingSession } from './SpeakingSession';
import './speaking.css';

type Load =
  | { status: 'loading' }
  | { status: 'locked' }
  | { status: 'none' }
  | { status: 'error'; message: string }
  | { status: 'ready'; topic: SpeakingTopic };

const text = (v: unknown, fallback: string) => (typeof v === 'string' && v.trim() !== '' ? v : fallback);
const seconds = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.round(v) : fallback);

/** The topic as the screen shows it: missing fields read 'Titre non disponible' and 'Contenu non disponible.' (spec). */
export function normaliseTopic(raw: Partial<SpeakingTopic> & { id: string }): SpeakingTopic {
  const a: Partial<SpeakingTopic['sectionA']> = raw.sectionA ?? {};
  const b: Partial<SpeakingTopic['sectionB']> = raw.sectionB ?? {};
  return {
    id: raw.id,
    number: typeof raw.number === 'number' ? raw.number : 0,
    title: text(raw.title, MISSING_TITLE),
    sectionA: {
      bannerTitle: text(a.bannerTitle, 'Section A'),
      documentContent: text(a.documentContent, MISSING_CONTENT),
      suggestedQuestions: Array.isArray(a.suggestedQuestions) ? a.suggestedQuestions.filter((q) => typeof q === 'string' && q.trim() !== '') : [],
      timeLimitSeconds: seconds(a.timeLimitSeconds, 300),
    },
    sectionB: {
      bannerTitle: text(b.bannerTitle, 'Section B'),
      documentContent: text(b.documentContent, MISSING_CONTENT),
      timeLimitSeconds: seconds(b.timeLimitSeconds, 600),
    },
  };
}

/** Where an unknown topic sends the learner: the first topic they may open (spec), or null. */
async function firstOpenTopic(): Promise<string | null> {
  const { tests } = await api.get<Catalogue>('/api/tests/speaking');
  const open = tests.find((t) => !t.locked && t.available);
  return open ? (open.slug ?? String(open.id)) : null;
}

function Loader({ topicId }: { topicId: string }) {
  const navigate = useNavigate();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let cancelled = false;
    const fail = (err: unknown) => {
      if (!cancelled) setLoad({ status: 'error', message: err instanceof Error ? err.message : String(err) });
    };
    api
      .get<Partial<SpeakingTopic> & { id: string }>(`/api/tests/speaking/${encodeURIComponent(topicId)}`)
      .then((topic) => {
        if (!cancelled) setLoad({ status: 'ready', topic: normaliseTopic({ ...topic, id: topic.id || topicId }) });
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        if (err instanceof ApiError && err.status === 403) setLoad({ status: 'locked' });
        else if (err instanceof ApiError && err.status === 404) {
          // Spec: a topic that matches none gives the first available one.
          firstOpenTopic()
            .then((first) => {
              if (cancelled) return;
              if (first && first !== topicId) void navigate(`/speaking/${encodeURIComponent(first)}`, { replace: true });
              else setLoad({ status: 'none' });
            })
            .catch(fail);
        } else fail(err);
      });
    return () => {
      cancelled = true;
    };
  }, [topicId, attempt, navigate]);

  switch (load.status) {
    case 'loading':
      return (
        <p className="page-status" role="status" lang="fr">
          Chargement du sujet...
        </p>
      );
    case 'locked':
      return (
        <section className="page page-narrow status-page" lang="fr">
          <h1 className="page-title">Sujet réservé aux abonnés</h1>
          <p className="page-lead">Ce sujet d’expression orale fait partie des formules payantes. Abonnez-vous pour débloquer les dix sujets.</p>
          <div className="speaking-status-actions">
            <Link to="/#pricing" className="btn btn-accent">
              Voir les formules
            </Link>
            <Link to="/section/speaking" className="btn btn-secondary">
              Retour aux sujets
            </Link>
          </div>
        </section>
      );
    case 'none':
      return (
        <section className="page page-narrow status-page" lang="fr">
          <h1 className="page-title">{NO_TOPIC_TITLE}</h1>
          <p className="page-lead">{NO_TOPIC_TEXT}</p>
          <Link to="/section/speaking" className="btn btn-primary">
            Retour aux sujets
          </Link>
        </section>
      );
    case 'error':
      return (
        <section className="page page-narrow status-page" lang="fr">
          <h1 className="page-title">TEF CANADA - EXPRESSION ORALE</h1>
          <p className="error-text" role="alert">
            Le sujet n’a pas pu être chargé. {load.message}
          </p>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              setLoad({ status: 'loading' });
              setAttempt((n) => n + 1);
            }}
          >
            Réessayer
          </button>
        </section>
      );
    case 'ready':
      return <SpeakingSession topic={load.topic} />;
  }
}

/** `/speaking/:topicId`: role-play with the AI examiner, by typing or by voice (spec "Speaking screen", §4–§8). */
export function SpeakingPage() {
  const { topicId = '' } = useParams();
  // Spec: the page scrolls to the top on opening or changing topic.
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [topicId]);
  return <Loader key={topicId} topicId={topicId} />;
}
