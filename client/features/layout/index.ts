/** The layout feature's public surface for app/: the site header, the offline notice and the install offer (its pages load from routes/). */
export { SiteHeader } from './components/site-header';
export { OfflineNotice } from './components/offline-notice';
export { LazyInstallPrompt } from './components/lazy-install-prompt';
