/** The layout feature's public surface for app/: the site header and the offline notice (its pages load from routes/). */
export { SiteHeader } from './components/site-header';
export { OfflineNotice } from './components/offline-notice';
