import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, ApiError } from '@/shared/api';
import type { WritingTopic } from '@/shared/api/types';
import { useAuth } from '@/shared/auth';
import { storedActive, writingKey } from './storage';
import { WritingSession } from './WritingSession';
import './writing.css';

type Load =
  | { status: 'loading' }
  | { status: 'locked' }
  | { status: 'not-found' }
  | { status: 'error'; message: string }
  | { status: 'ready'; topic: WritingTopic };

function Loader({ topicId }: { topicId: string }) {
  const { user } = useAuth();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let cancelled = false;
    api
      .get<WritingTopic>(`/api/tests/writing/${encodeURIComponent(topicId)}`)
      .then((topic) => {
        if (!cancelled) setLoad({ status: 'ready', topic });
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        if (err instanceof ApiError && err.status === 403) setLoad({ status: 'locked' });
        else if (err instanceof ApiError && err.status === 404) setLoad({ status: 'not-found' });
        else setLoad({ status: 'error', message: err instanceof Error ? err.message : String(err) });
      });
    return () => {
      cancelled = true;
    };
  }, [topicId, attempt]);

  switch (load.status) {
    case 'loading':
      return (
        <p className="page-status" role="status" lang="fr">
          Chargement du sujet {storedActive(writingKey(user?.uid ?? 'anonymous', topicId))}...
        </p>
      );
    case 'locked':
      return (
        <section className="page page-narrow status-page" lang="fr">
          <h1 className="page-title">Sujet réservé aux abonnés</h1>
          <p className="page-lead">Ce sujet d’expression écrite fait partie des formules payantes. Abonnez-vous pour débloquer les dix sujets.</p>
          <div className="writing-status-actions">
            <Link to="/#pricing" className="btn btn-accent">
              Voir les formules
            </Link>
            <Link to="/section/writing" className="btn btn-secondary">
              Retour aux sujets
            </Link>
          </div>
        </section>
      );
    case 'not-found':
      return (
        <section className="page page-narrow status-page" lang="fr">
          <h1 className="page-title">Sujet introuvable</h1>
          <p className="page-lead">Ce sujet n’existe pas. Choisissez-en un dans la liste des sujets d’expression écrite.</p>
          <Link to="/section/writing" className="btn btn-primary">
            Retour aux sujets
          </Link>
        </section>
      );
    case 'error':
      return (
        <section className="page page-narrow status-page" lang="fr">
          <h1 className="page-title">TEF CANADA - EXPRESSION ÉCRITE</h1>
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
      return <WritingSession topic={load.topic} />;
  }
}

/** `/writing/:topicId`: the two writing tasks of a topic, with AI correction (spec "Writing screen", §4–§6). */
export function WritingPage() {
  const { topicId = '' } = useParams();
  return <Loader key={topicId} topicId={topicId} />;
}
