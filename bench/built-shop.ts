/**
 * What the browser benches share: where the built client is, and how Debian's Chromium is launched
 * here (the flags playwright.config.ts uses too). The shops they open are bench-shops.ts's.
 */
import { join } from 'node:path';

export const DIST = join(import.meta.dirname, '..', 'dist');
export const CHROMIUM_PATH = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';
export { CHROMIUM_ARGS } from '../e2e/fixtures/chromium';
