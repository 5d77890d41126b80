import { ErrorCode } from '../../common/errors';

/**
 * The one error type the HTTP layer understands. `expose` errors are answered with their code and
 * message; anything else becomes a generic 500 (logged, never leaked).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly expose = status < 500,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export class NotFoundError extends AppError {
  constructor(code: ErrorCode = ErrorCode.notFound, message = 'Not found') {
    super(404, code, message);
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, code: ErrorCode = ErrorCode.badRequest) {
    super(400, code, message);
  }
}
