import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { authValue, meValue, profileValue, renderWithApp } from '@/test/render';
import { DashboardPage } from './DashboardPage';

const ana = { uid: 'local-1', email: 'ana@example.com' };

describe('DashboardPage', () => {
  it('shows an active subscription', () => {
    const endDate = '2027-02-20T10:00:00Z';
    const me = meValue({
      subscription: { status: 'active', label: 'Active', plan: 'quarterly', endDate, daysLeft: 90 },
    });
    renderWithApp(<DashboardPage />, { auth: authValue({ user: ana }), profile: profileValue(me) });
    expect(screen.getByRole('heading', { name: 'My Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('ana@example.com')).toBeInTheDocument();
    expect(screen.getByText('quarterly')).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByText(new Date(endDate).toLocaleDateString())).toBeInTheDocument();
    expect(screen.getByText('90')).toBeInTheDocument();
  });

  it('shows N/A without a subscription', () => {
    renderWithApp(<DashboardPage />, { auth: authValue({ user: ana }), profile: profileValue(meValue()) });
    expect(screen.getByText('No Subscription')).toBeInTheDocument();
    expect(screen.getAllByText('N/A')).toHaveLength(2);
  });

  it('says when there is no user document', () => {
    renderWithApp(<DashboardPage />, {
      auth: authValue({ user: ana }),
      profile: profileValue(meValue({ registered: false })),
    });
    expect(screen.getByText('No subscription found.')).toBeInTheDocument();
  });

  it('says when loading failed', () => {
    renderWithApp(<DashboardPage />, {
      auth: authValue({ user: ana }),
      profile: profileValue(null, { state: { status: 'error', message: 'boom' } }),
    });
    expect(screen.getByText('Failed to load subscription.')).toBeInTheDocument();
  });
});
