export { api, ApiError, configureApi } from './client';
export type { Me, Plan, Subscription, SubscriptionStatus } from './types';
