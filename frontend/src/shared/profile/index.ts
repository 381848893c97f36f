export { ProfileProvider, StaticProfileProvider, useProfile, type ProfileContextValue, type ProfileState } from './ProfileProvider';
