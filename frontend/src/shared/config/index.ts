export { ConfigProvider, useConfig } from './ConfigContext';
export { loadConfig, parseConfig, type AppConfig, type SocialLinks } from './config';
