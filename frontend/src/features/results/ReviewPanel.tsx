import { useState } from 'react';
import type { ReviewedQuestion } from '@/shared/api/types';
import { MediaNotice } from '@/shared/ui/MediaNotice';
import { RetryableImage } from '@/shared/ui/RetryableImage';
import type { MediaRecovery } from '@/shared/ui/useMediaRecovery';

function ReviewAudioAttempt({ url, media }: { url: string; media: MediaRecovery }) {
  const [state, setState] = useState<'ok' | 'waiting' | 'failed'>('ok');
  if (state === 'failed') {
    return <MediaNotice message="The audio could not be loaded." onRetry={media.retry} retrying={media.refreshing} />;
  }
  return (
    <div className="review-audio">
      {state === 'waiting' && <p className="review-audio-status">Loading the recording again…</p>}
      <audio controls preload="metadata" src={url} aria-label="Recording" onError={() => setState(media.recover() ? 'waiting' : 'failed')} />
    </div>
  );
}

/** In review the recording replays freely. */
function ReviewAudio({ url, media }: { url: string; media: MediaRecovery }) {
  return <ReviewAudioAttempt key={`${url}#${media.generation}`} url={url} media={media} />;
}

interface Props {
  id: string;
  question: ReviewedQuestion;
  media: MediaRecovery;
}

/** One question in review: its material, the options marked, the explanation and, for listening, the transcript. */
export function ReviewPanel({ id, question, media }: Props) {
  const doc = question.document;
  return (
    <div className="review-panel" id={id}>
      {question.audio && <ReviewAudio url={question.audio.url} media={media} />}
      {doc && (doc.title || doc.text || doc.image) && (
        <article className="review-document" lang="fr" aria-label={doc.title ?? 'Document'}>
          {doc.title && <h4 className="review-document-title">{doc.title}</h4>}
          {doc.text && <div className="review-document-text">{doc.text}</div>}
          {doc.image && (
            <div lang="en">
              <RetryableImage image={doc.image} media={media} />
            </div>
          )}
        </article>
      )}
      {question.image && <RetryableImage image={question.image} media={media} />}

      <h4 className="review-heading">Options</h4>
      <ol className="review-options">
        {question.options.map((option, i) => {
          const isKey = option === question.correctAnswer;
          const isChosen = option === question.yourAnswer;
          return (
            <li key={i} className={`review-option${isKey ? ' is-key' : ''}${isChosen && !isKey ? ' is-wrong-choice' : ''}`}>
              <span className="review-option-letter" aria-hidden="true">
                {String.fromCharCode(65 + i)}
              </span>
              <span lang="fr">{option}</span>
              {(isKey || isChosen) && (
                <span className="review-option-tags">
                  {isChosen && <span className="review-tag">Your answer</span>}
                  {isKey && <span className="review-tag review-tag-key">Correct answer</span>}
                </span>
              )}
            </li>
          );
        })}
      </ol>

      <h4 className="review-heading">Explanation</h4>
      <p className="review-explanation">{question.explanation}</p>

      {question.transcript && question.transcript.length > 0 && (
        <>
          <h4 className="review-heading">Transcript</h4>
          <div className="review-transcript" lang="fr">
            {question.transcript.map((line, i) => (
              <p key={i}>
                <strong>{line.speaker}:</strong> {line.text}
              </p>
            ))}
          </div>
        </>
      )}
    </div>
  );
}
