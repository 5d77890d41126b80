/**
 * zod as the browser gets it: vite.config.ts resolves every `from 'zod'` of the client build here.
 *
 * The shop's pages may not run eval (their Content-Security-Policy, server/lib/security-headers.ts).
 * zod compiles object parsers with `new Function` when it may, and finds out by trying once: a
 * try the browser reports as a policy violation even though zod catches it. Set here, before any
 * schema is made (a module's imports run before it), it parses without eval. `zod/v4` is the same
 * module as `zod` under another name, so this file is not resolved to itself.
 */
import { config } from 'zod/v4';

config({ jitless: true });

export * from 'zod/v4';
