import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { formatLocalDate } from '@/shared/format';
import { AlreadySubscribedModal } from './AlreadySubscribedModal';

describe('AlreadySubscribedModal', () => {
  it('says the user already has an active subscription, with days left and the end date, and closes with OK', async () => {
    const onClose = vi.fn();
    const endDate = '2027-02-20T10:00:00Z';
    render(<AlreadySubscribedModal daysLeft={12} endDate={endDate} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Already Subscribed' });
    expect(dialog).toHaveTextContent('You already have an active subscription.');
    expect(dialog).toHaveTextContent('Days left: 12');
    expect(dialog).toHaveTextContent(`Ends on: ${formatLocalDate(endDate)}`);
    const ok = screen.getByRole('button', { name: 'OK' });
    expect(ok).toHaveFocus();
    await userEvent.click(ok);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes with Escape, and reads 0 and N/A without dates', async () => {
    const onClose = vi.fn();
    render(<AlreadySubscribedModal daysLeft={null} endDate={null} onClose={onClose} />);
    expect(screen.getByRole('dialog')).toHaveTextContent('Days left: 0');
    expect(screen.getByRole('dialog')).toHaveTextContent('Ends on: N/A');
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
