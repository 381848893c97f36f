import './media.css';

interface Props {
  /** What failed, e.g. 'The image could not be loaded.' */
  message: string;
  onRetry: () => void;
  /** True while fresh links are being fetched. */
  retrying: boolean;
}

/** A visible notice for an image or audio that failed to load, with a retry (decisions §4: never fail in silence). */
export function MediaNotice({ message, onRetry, retrying }: Props) {
  return (
    <div className="notice notice-error media-notice" role="alert">
      <p>{message}</p>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry} disabled={retrying} aria-busy={retrying}>
        {retrying ? 'Retrying…' : 'Retry'}
      </button>
    </div>
  );
}
