/**
 * The shop's pages may not run eval (their Content-Security-Policy, server/lib/security-headers.ts).
 * zod compiles object parsers with `new Function` when it may, and finds out by trying once: a
 * try the browser reports as a policy violation even though zod catches it. Imported first by
 * the entry (main.tsx), before any schema is made, it turns that off: zod parses without eval.
 */
import { config } from 'zod';

config({ jitless: true });
