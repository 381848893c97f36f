import { formatLocalDate } from '@/shared/format';
import { Modal } from './Modal';

interface Props {
  daysLeft: number | null;
  endDate: string | null;
  onClose: () => void;
}

/** Tells a subscriber they already have an active plan (spec §2, landing page). */
export function AlreadySubscribedModal({ daysLeft, endDate, onClose }: Props) {
  return (
    <Modal
      title="Already Subscribed"
      onDismiss={onClose}
      actions={
        <button type="button" className="btn btn-primary" onClick={onClose}>
          OK
        </button>
      }
    >
      <p>You already have an active subscription.</p>
      <p>
        Days left: <strong>{daysLeft ?? 0}</strong>
        <br />
        Ends on: <strong>{formatLocalDate(endDate)}</strong>
      </p>
    </Modal>
  );
}
