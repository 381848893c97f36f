/** A failure the user can retry: the message, announced, and a 'Try again' button. */
export function RetryAlert({
  message,
  onRetry,
  primary = false,
}: {
  message: string;
  onRetry: () => void;
  primary?: boolean;
}) {
  return (
    <>
      <p className="error-text" role="alert">
        {message}
      </p>
      <button type="button" className={`btn ${primary ? 'btn-primary' : 'btn-secondary'}`} onClick={onRetry}>
        Try again
      </button>
    </>
  );
}
