/** Shapes of the server's answers (functions in shared/src/api on the server). */
export type SubscriptionStatus = 'none' | 'active' | 'expired';

export interface Subscription {
  status: SubscriptionStatus;
  /** 'No Subscription', 'Active' or 'Expired'. */
  label: string;
  plan: string | null;
  /** RFC 3339, or null without a subscription. */
  endDate: string | null;
  daysLeft: number | null;
}

export interface Me {
  uid: string;
  email: string | null;
  /** False until the user document exists. */
  registered: boolean;
  acceptedPrivacyPolicy: boolean;
  aiCredits: number;
  speakingCredits: number;
  subscription: Subscription;
}

/** A plan as the server sells it (GET /api/plans). Prices are in minor units. */
export interface Plan {
  id: 'free' | 'monthly' | 'quarterly';
  name: string;
  priceCents: number;
  currency: string;
  /** Days of access; null for the free plan. */
  days: number | null;
}
