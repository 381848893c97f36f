import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useDocumentTitle } from '@/shared/title';

function messageOf(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The router's fallback error screen (spec §2). */
export function RouteErrorPage() {
  const error = useRouteError();
  useDocumentTitle('Unexpected Error');
  console.error(error);
  return (
    <section className="page page-narrow status-page" role="alert">
      <h1 className="page-title">Unexpected Application Error!</h1>
      <p className="error-text">{messageOf(error)}</p>
      <a href="/" className="btn btn-primary">
        Back to Home
      </a>
    </section>
  );
}
