/** The `{ code, message }` of the API's error bodies (common/errors.ts). */
import { isErrorCode, type ErrorCode } from '../../common/errors';

/** Reads `{ code, message }` out of an error body, if it is one (a code we do not know reads as none). */
export function parseErrorBody(bodyText: string): { code: ErrorCode | null; message: string | null } {
  try {
    const body: unknown = JSON.parse(bodyText);
    if (body && typeof body === 'object') {
      const { code, message } = body as Record<string, unknown>;
      return { code: isErrorCode(code) ? code : null, message: typeof message === 'string' ? message : null };
    }
  } catch {
    // not JSON: plain text body
  }
  return { code: null, message: null };
}
