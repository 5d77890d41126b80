// The types of what eslint.config.js exports for the tests that check the architecture it declares.
export const CLIENT_FEATURE_IMPORTS: Readonly<Record<string, readonly string[]>>;
export const SERVER_MODULE_IMPORTS: Readonly<Record<string, readonly string[]>>;
export const TABLE_OWNERS: Readonly<Record<string, readonly string[]>>;
export const TABLE_READERS: Readonly<Record<string, readonly string[]>>;
declare const config: unknown[];
export default config;
