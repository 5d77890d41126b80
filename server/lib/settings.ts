/**
 * Pieces of the settings' schemas (server/config.ts, server/paymaster-config.ts): how a URL, an
 * optional value and a comma-separated list are read from the environment.
 */
import { z } from 'zod';

export const urlString = z.url({ protocol: /^https?$/ });
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
/** Unset or blank: undefined. */
export const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());
/** A comma-separated setting: each item checked by `item`; unset or blank is the empty list. */
export const list = <T extends z.ZodType<string>>(item: T) =>
  z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : v === undefined
          ? []
          : v,
    z.array(item).max(100),
  );
