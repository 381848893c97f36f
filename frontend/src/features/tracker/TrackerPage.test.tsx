import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Progress, ProgressPoint } from '@/shared/api/types';
import { formatLocalDate } from '@/shared/format';
import { authValue, renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { TrackerPage } from './TrackerPage';

const ana = { uid: 'u-ana', email: 'ana@example.com' };

beforeAll(() => {
  // jsdom has no layout: give recharts a ResizeObserver that reports a size.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(private readonly cb: ResizeObserverCallback) {}
      observe(target: Element) {
        this.cb([{ target, contentRect: { width: 400, height: 250 } } as unknown as ResizeObserverEntry], this);
      }
      unobserve() {}
      disconnect() {}
    },
  );
});

const point = (i: number, clb: number, skill = 'reading'): ProgressPoint => ({
  resultId: `${skill}.000000000000000${i}.00000000000000a${i}`,
  timestamp: `2025-11-0${i}T10:00:00Z`,
  clb,
  score: 30,
  total: 40,
  testId: i,
});

const empty: Progress = { skills: { listening: [], reading: [], speaking: [], writing: [] }, overallClb: null, skillsWithResults: 0 };

function renderTracker(user: typeof ana | null = ana) {
  return renderWithApp(<TrackerPage />, { auth: authValue({ user }) });
}

describe('TrackerPage', () => {
  it('asks a visitor to log in', () => {
    renderTracker(null);
    expect(screen.getByText('Please log in to view your results tracker.')).toBeInTheDocument();
  });

  it('shows the loading text, then four empty charts', async () => {
    server.use(http.get('/api/progress', () => HttpResponse.json(empty)));
    renderTracker();
    expect(screen.getByRole('heading', { level: 1, name: 'Your CLB Progress Tracker' })).toBeInTheDocument();
    expect(screen.getByText('Loading results... Please wait.')).toBeInTheDocument();
    expect(await screen.findAllByText('No results available for this section yet. Keep practicing!')).toHaveLength(4);
    for (const title of ['Compréhension Orale', 'Compréhension Écrite', 'Production Orale', 'Production Écrite']) {
      const card = screen.getByRole('article', { name: title });
      expect(within(card).getByText('Latest: N/A')).toBeInTheDocument();
    }
    expect(screen.getByText('Overall CLB: N/A')).toBeInTheDocument();
  });

  it('says when the results could not be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(http.get('/api/progress', () => HttpResponse.json({ error: 'boom' }, { status: 500 })));
    renderTracker();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load some or all exam results.');
  });

  it('shows the latest CLB per skill, the overall CLB from the lowest skill, and review links', async () => {
    const progress: Progress = {
      skills: { listening: [point(1, 5, 'listening'), point(2, 6, 'listening')], reading: [point(1, 6), point(2, 7), point(3, 8)], speaking: [], writing: [] },
      overallClb: 6,
      skillsWithResults: 2,
    };
    server.use(http.get('/api/progress', () => HttpResponse.json(progress)));
    renderTracker();
    const reading = await screen.findByRole('article', { name: 'Compréhension Écrite' });
    expect(within(reading).getByText('Latest: CLB 8')).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Compréhension Orale' })).getByText('Latest: CLB 6')).toBeInTheDocument();
    expect(screen.getByText('Overall CLB 6 — your lowest skill')).toBeInTheDocument();
    expect(screen.getByText('based on 2 of 4 skills')).toBeInTheDocument();
    expect(within(reading).getByText('Session 3', { selector: '.tracker-session-name' })).toBeInTheDocument();
    expect(within(reading).getByRole('link', { name: 'Review session 3, Reading Test 3' })).toHaveAttribute('href', `/results/${point(3, 8).resultId}`);
    expect(screen.getAllByText('No results available for this section yet. Keep practicing!')).toHaveLength(2);
    // The chart itself loads in its own chunk.
    expect(await within(reading).findByRole('img', { name: /Compréhension Écrite, CLB level by session\. Session 1: CLB 6/ })).toBeInTheDocument();
  });

  it("writes 'CLB 3 or below' and leaves out the basis when all four skills have results", async () => {
    const progress: Progress = {
      skills: { listening: [point(1, 3, 'listening')], reading: [point(1, 5)], speaking: [point(1, 4, 'speaking')], writing: [point(1, 6, 'writing')] },
      overallClb: 3,
      skillsWithResults: 4,
    };
    server.use(http.get('/api/progress', () => HttpResponse.json(progress)));
    renderTracker();
    expect(await screen.findByText('Overall CLB 3 or below — your lowest skill')).toBeInTheDocument();
    expect(screen.queryByText(/based on/)).not.toBeInTheDocument();
    // Speaking and writing have no review page here.
    const speaking = screen.getByRole('article', { name: 'Production Orale' });
    expect(within(speaking).queryByRole('link')).not.toBeInTheDocument();
  });

  it('draws the point of a skill with a single session, filled and labelled with its level', async () => {
    const progress: Progress = { skills: { listening: [], reading: [point(1, 6)], speaking: [], writing: [] }, overallClb: 6, skillsWithResults: 1 };
    server.use(http.get('/api/progress', () => HttpResponse.json(progress)));
    renderTracker();
    const reading = await screen.findByRole('article', { name: 'Compréhension Écrite' });
    const chart = await within(reading).findByRole('img', { name: /Session 1: CLB 6\./ });
    await waitFor(() => expect(chart.querySelectorAll('.recharts-line-dot')).toHaveLength(1));
    const dot = chart.querySelector('.recharts-line-dot') as SVGCircleElement;
    expect(Number(dot.getAttribute('r'))).toBeGreaterThan(5);
    expect(dot).toHaveAttribute('fill', '#1f4a7a');
    expect(within(chart).getByText('CLB 6')).toBeInTheDocument();
    // The session row: name, date (the one formatter), level and review link, each in its own cell.
    const row = within(reading).getByText('Session 1', { selector: '.tracker-session-name' }).closest('li') as HTMLElement;
    expect(within(row).getByText(formatLocalDate(point(1, 6).timestamp), { selector: '.tracker-session-date' })).toBeInTheDocument();
    expect(within(row).getByText('CLB 6', { selector: '.tracker-session-clb' })).toBeInTheDocument();
  });
});
