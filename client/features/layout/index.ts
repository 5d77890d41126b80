/** The layout feature's public surface for app/: the site header (its pages load from routes/). */
export { SiteHeader } from './components/site-header';
