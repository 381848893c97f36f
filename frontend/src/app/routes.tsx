import { createBrowserRouter, Navigate, useParams, type RouteObject } from 'react-router';
import { LandingPage } from '@/features/landing/LandingPage';
import { NotFoundPage } from '@/features/errors/NotFoundPage';
import { RouteErrorPage } from '@/features/errors/RouteErrorPage';
import { Layout } from './Layout';
import { LoginRequired, RequireAuth } from './guards';

/** `/section/writing/:topicId` is kept only as a redirect to the guarded route (decisions §3). */
function WritingRedirect() {
  const { topicId = '' } = useParams();
  return <Navigate to={`/writing/${encodeURIComponent(topicId)}`} replace />;
}

const guarded = (element: React.ReactNode) => <RequireAuth>{element}</RequireAuth>;

/** The route table (spec §2 with decisions §3). Every page but the landing page loads on demand. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/success', lazy: async () => ({ Component: (await import('@/features/purchase/SuccessPage')).SuccessPage }) },
      { path: '/cancel', lazy: async () => ({ Component: (await import('@/features/purchase/CancelPage')).CancelPage }) },
      { path: '/section/writing/:topicId', element: <WritingRedirect /> },
      {
        path: '/section/:category',
        lazy: async () => {
          const { SectionPage } = await import('@/features/section/SectionPage');
          return { element: guarded(<SectionPage />) };
        },
      },
      {
        path: '/quiz/:category/:testId',
        lazy: async () => {
          const { QuizPage } = await import('@/features/quiz/QuizPage');
          return { element: guarded(<QuizPage />) };
        },
      },
      {
        path: '/writing/:topicId',
        lazy: async () => {
          const { UpcomingPage } = await import('@/features/upcoming/UpcomingPage');
          return { element: guarded(<UpcomingPage screen="writing" />) };
        },
      },
      {
        path: '/speaking/:topicId',
        lazy: async () => {
          const { UpcomingPage } = await import('@/features/upcoming/UpcomingPage');
          return { element: guarded(<UpcomingPage screen="speaking" />) };
        },
      },
      { path: '/results', element: <Navigate to="/results-tracker" replace /> },
      {
        path: '/results/:resultId',
        lazy: async () => {
          const { ResultsPage } = await import('@/features/results/ResultsPage');
          return { element: guarded(<ResultsPage />) };
        },
      },
      {
        path: '/results-tracker',
        lazy: async () => {
          const { TrackerPage } = await import('@/features/tracker/TrackerPage');
          return { element: <LoginRequired><TrackerPage /></LoginRequired> };
        },
      },
      {
        path: '/dashboard',
        lazy: async () => {
          const { DashboardPage } = await import('@/features/dashboard/DashboardPage');
          return { element: <LoginRequired><DashboardPage /></LoginRequired> };
        },
      },
      { path: '/zoom', lazy: async () => ({ Component: (await import('@/features/zoom/ZoomDemoPage')).ZoomDemoPage }) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
