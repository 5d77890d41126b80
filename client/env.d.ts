/** Build version (package version + optional BUILD_ID), injected by vite.config.ts. */
declare const __APP_VERSION__: string;
