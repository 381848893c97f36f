export { planName, usePlans, type PlansState } from './usePlans';
