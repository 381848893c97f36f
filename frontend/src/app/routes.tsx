import { createBrowserRouter, Navigate, useParams, type RouteObject } from 'react-router';
import { LandingPage } from '@/features/landing/LandingPage';
import { NotFoundPage } from '@/features/errors/NotFoundPage';
import { RouteErrorPage } from '@/features/errors/RouteErrorPage';
import { Layout } from './Layout';
import { LoginRequired, RequireAuth } from './guards';
import { TITLES, type RouteHandle } from './titles';

/** `/section/writing/:topicId` is kept only as a redirect to the guarded route (decisions §3). */
function WritingRedirect() {
  const { topicId = '' } = useParams();
  return <Navigate to={`/writing/${encodeURIComponent(topicId)}`} replace />;
}

const guarded = (element: React.ReactNode) => <RequireAuth>{element}</RequireAuth>;
const titled = (title: RouteHandle['title']): RouteHandle => ({ title });

/** The route table (spec §2 with decisions §3). Every page but the landing page loads on demand. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        // A direct visit to a lazy page: the navbar and footer show at once, this in the page's place until it loads.
        hydrateFallbackElement: (
          <p className="page-status" role="status">
            Loading…
          </p>
        ),
        children: [
          { path: '/', element: <LandingPage />, handle: titled(TITLES.landing) },
          {
            path: '/success',
            handle: titled(TITLES.success),
            lazy: async () => ({ Component: (await import('@/features/purchase/SuccessPage')).SuccessPage }),
          },
          {
            path: '/cancel',
            handle: titled(TITLES.cancel),
            lazy: async () => ({ Component: (await import('@/features/purchase/CancelPage')).CancelPage }),
          },
          { path: '/section/writing/:topicId', element: <WritingRedirect />, handle: titled(TITLES.writing) },
          {
            path: '/section/:category',
            handle: titled(TITLES.section),
            lazy: async () => {
              const { SectionPage } = await import('@/features/section/SectionPage');
              return { element: guarded(<SectionPage />) };
            },
          },
          {
            path: '/quiz/:category/:testId',
            handle: titled(TITLES.quiz),
            lazy: async () => {
              const { QuizPage } = await import('@/features/quiz/QuizPage');
              return { element: guarded(<QuizPage />) };
            },
          },
          {
            path: '/writing/:topicId',
            handle: titled(TITLES.writing),
            lazy: async () => {
              const { WritingPage } = await import('@/features/writing/WritingPage');
              return { element: guarded(<WritingPage />) };
            },
          },
          {
            path: '/speaking/:topicId',
            handle: titled(TITLES.speaking),
            lazy: async () => {
              const { SpeakingPage } = await import('@/features/speaking/SpeakingPage');
              return { element: guarded(<SpeakingPage />) };
            },
          },
          { path: '/results', element: <Navigate to="/results-tracker" replace />, handle: titled(TITLES.tracker) },
          {
            path: '/results/:resultId',
            handle: titled(TITLES.results),
            lazy: async () => {
              const { ResultsPage } = await import('@/features/results/ResultsPage');
              return { element: guarded(<ResultsPage />) };
            },
          },
          {
            path: '/results-tracker',
            handle: titled(TITLES.tracker),
            lazy: async () => {
              const { TrackerPage } = await import('@/features/tracker/TrackerPage');
              return { element: <LoginRequired><TrackerPage /></LoginRequired> };
            },
          },
          {
            path: '/dashboard',
            handle: titled(TITLES.dashboard),
            lazy: async () => {
              const { DashboardPage } = await import('@/features/dashboard/DashboardPage');
              return { element: <LoginRequired><DashboardPage /></LoginRequired> };
            },
          },
          {
            path: '/zoom',
            handle: titled(TITLES.zoom),
            lazy: async () => ({ Component: (await import('@/features/zoom/ZoomDemoPage')).ZoomDemoPage }),
          },
          { path: '*', element: <NotFoundPage />, handle: titled(TITLES.notFound) },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
