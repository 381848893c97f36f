import { render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '@/shared/api';
import { formatLocalDate } from '@/shared/format';
import { plansHandler } from '@/shared/plans/testUtils';
import { authValue, meValue, profileValue, renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { BreakableEmail, DashboardPage, daysLeftText, STATUS_TEXT } from './DashboardPage';

const ana = { uid: 'local-1', email: 'ana@example.com' };

beforeEach(() => {
  server.use(plansHandler());
});

describe('DashboardPage', () => {
  it('shows an active subscription with the plan by its name', async () => {
    const endDate = '2027-02-20T10:00:00Z';
    const me = meValue({
      subscription: { status: 'active', label: 'Active', plan: 'monthly', endDate, daysLeft: 30 },
    });
    renderWithApp(<DashboardPage />, { auth: authValue({ user: ana }), profile: profileValue(me) });
    expect(screen.getByRole('heading', { name: 'My Dashboard' })).toBeInTheDocument();
    expect(screen.getByTitle('ana@example.com')).toHaveTextContent(/^ana@example\.com$/);
    expect(await screen.findByText('1 Month')).toBeInTheDocument();
    expect(screen.queryByText('monthly')).not.toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByText(formatLocalDate(endDate))).toBeInTheDocument();
    expect(screen.getByText('30')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'See the plans' })).not.toBeInTheDocument();
  });

  it('names the plan even when the plans cannot be loaded, never by its id', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(http.get('/api/plans', () => HttpResponse.json({ error: 'x' }, { status: 500 })));
    const me = meValue({ subscription: { status: 'active', label: 'Active', plan: 'quarterly', endDate: '2027-02-20T10:00:00Z', daysLeft: 90 } });
    renderWithApp(<DashboardPage />, { auth: authValue({ user: ana }), profile: profileValue(me) });
    expect(await screen.findByText('Quarterly')).toBeInTheDocument();
  });

  it('shows N/A without a subscription', () => {
    renderWithApp(<DashboardPage />, { auth: authValue({ user: ana }), profile: profileValue(meValue()) });
    expect(screen.getByText('No Subscription')).toBeInTheDocument();
    expect(screen.getByText('Free')).toBeInTheDocument();
    expect(screen.getAllByText('N/A')).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'See the plans' })).toHaveAttribute('href', '/#pricing');
  });

  it('says when there is no user document', () => {
    renderWithApp(<DashboardPage />, {
      auth: authValue({ user: ana }),
      profile: profileValue(meValue({ registered: false })),
    });
    expect(screen.getByText('No subscription found.')).toBeInTheDocument();
  });

  it('shows an expired subscription with its plan, end date and 0 days left', async () => {
    const endDate = '2025-01-05T10:00:00Z';
    const me = meValue({
      subscription: { status: 'expired', label: 'Expired', plan: 'quarterly', endDate, daysLeft: 0 },
    });
    renderWithApp(<DashboardPage />, { auth: authValue({ user: ana }), profile: profileValue(me) });
    expect(await screen.findByText('Quarterly')).toBeInTheDocument();
    expect(screen.getByText('Expired')).toBeInTheDocument();
    expect(screen.getByText(formatLocalDate(endDate))).toBeInTheDocument();
    expect(screen.getByText('0')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See the plans' })).toBeInTheDocument();
  });

  it("uses the spec's status texts, whatever label the server sends", () => {
    const me = meValue({
      subscription: { status: 'active', label: 'active', plan: 'monthly', endDate: '2030-01-01T00:00:00Z', daysLeft: 3 },
    });
    renderWithApp(<DashboardPage />, { auth: authValue({ user: ana }), profile: profileValue(me) });
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(STATUS_TEXT).toEqual({ none: 'No Subscription', active: 'Active', expired: 'Expired' });
  });

  it('reloads a profile loaded earlier when it opens, and not one still loading', () => {
    const ready = profileValue(meValue());
    const { unmount } = renderWithApp(<DashboardPage />, { auth: authValue({ user: ana }), profile: ready });
    expect(ready.refresh).toHaveBeenCalledTimes(1);
    unmount();

    const loading = profileValue(null, { state: { status: 'loading' } });
    renderWithApp(<DashboardPage />, { auth: authValue({ user: ana }), profile: loading });
    expect(screen.getByText('Loading your subscription…')).toBeInTheDocument();
    expect(loading.refresh).not.toHaveBeenCalled();
  });

  it('asks a signed-out visitor to log in', () => {
    renderWithApp(<DashboardPage />, { auth: authValue(), profile: profileValue(null) });
    expect(screen.getByText('You must be logged in to view your dashboard.')).toBeInTheDocument();
  });

  it('says when the profile carries no subscription data', () => {
    const me = { ...meValue(), subscription: undefined } as unknown as Me;
    renderWithApp(<DashboardPage />, { auth: authValue({ user: ana }), profile: profileValue(me) });
    expect(screen.getByText('No subscription data found.')).toBeInTheDocument();
  });

  it('says when loading failed', () => {
    renderWithApp(<DashboardPage />, {
      auth: authValue({ user: ana }),
      profile: profileValue(null, { state: { status: 'error', message: 'boom' } }),
    });
    expect(screen.getByText('Failed to load subscription.')).toBeInTheDocument();
  });
});

describe('days left', () => {
  it('is whole days rounded up, never below 0, and N/A without an end date', () => {
    expect(daysLeftText(30)).toBe('30');
    expect(daysLeftText(29.01)).toBe('30');
    expect(daysLeftText(0.2)).toBe('1');
    expect(daysLeftText(0)).toBe('0');
    expect(daysLeftText(-4)).toBe('0');
    expect(daysLeftText(null)).toBe('N/A');
    expect(daysLeftText(undefined)).toBe('N/A');
  });
});

describe('BreakableEmail', () => {
  it("offers line breaks only after '@' and before dots, and keeps the address whole", () => {
    const { container } = render(<BreakableEmail email="e2e.walk.monthly@example.com" />);
    const email = container.querySelector('.email') as HTMLElement;
    expect(email).toHaveTextContent(/^e2e\.walk\.monthly@example\.com$/);
    expect(email.innerHTML).toBe('e2e<wbr>.walk<wbr>.monthly@<wbr>example<wbr>.com');
  });
});
