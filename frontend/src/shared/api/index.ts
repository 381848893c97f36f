export { api, ApiError, configureApi } from './client';
export type {
  CheckoutRequest,
  CheckoutResponse,
  CheckoutSession,
  Me,
  Plan,
  Subscription,
  SubscriptionStatus,
} from './types';
