import type { Context } from 'koa';
import type { z } from 'zod';
import { ErrorCode } from '../../common/errors';
import { AppError } from './errors';

/** One readable sentence from a zod failure: "quantity: quantity must be at most 10". */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}

/** The JSON body of a request, checked against `schema`; 415 when it is not JSON, 400 when wrong. */
export function parseJsonBody<S extends z.ZodType>(ctx: Context, schema: S, example: string): z.infer<S> {
  if (!ctx.request.is('application/json')) {
    throw new AppError(ErrorCode.unsupportedMediaType, `Send the body as JSON (Content-Type: application/json), e.g. ${example}`);
  }
  const result = schema.safeParse((ctx.request as { body?: unknown }).body);
  if (!result.success) throw new AppError(ErrorCode.badRequest, `${describeIssues(result.error)}. Expected ${example}`);
  return result.data;
}
