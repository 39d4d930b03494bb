import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError as ApiErrorBody, ErrorCode } from '../../contract/api.ts';

/** The HTTP status of each stable error code. */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  INVALID_INPUT: 400,
  NO_SESSION: 401,
  INSUFFICIENT_BALANCE: 402,
  SALES_CLOSED: 403,
  LIMIT_REACHED: 403,
  PLAYER_BLOCKED: 403,
  NOT_FOUND: 404,
  SOLD_OUT: 409,
  PLAY_ID_REUSED: 409,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  WALLET_UNAVAILABLE: 503,
};

/** An expected refusal: becomes `{"error": {code, message}}` with the code's status. */
export class ApiError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    statusCode = ERROR_STATUS[code],
  ) {
    super(message);
    this.statusCode = statusCode;
  }
}

export function errorBody(code: ErrorCode, message: string): ApiErrorBody {
  return { error: { code, message } };
}

/** Every error the server sends has the same shape; framework errors are mapped to codes. */
export function handleError(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof ApiError) {
    void reply.code(error.statusCode).send(errorBody(error.code, error.message));
    return;
  }
  if (error.validation) {
    const where = error.validationContext ?? 'request';
    void reply
      .code(400)
      .send(errorBody('INVALID_INPUT', `${where}${error.message.replace(/^(body|querystring|params|headers)/, '')}`));
    return;
  }
  const status = error.statusCode ?? 500;
  if (status === 429) {
    void reply.code(429).send(errorBody('RATE_LIMITED', 'too many requests; slow down and retry shortly'));
    return;
  }
  if (status >= 400 && status < 500) {
    // Body too large (413), unsupported content type (415), malformed JSON (400)…
    void reply.code(status).send(errorBody('INVALID_INPUT', error.message));
    return;
  }
  request.log.error({ err: error }, 'unexpected error');
  void reply.code(500).send(errorBody('INTERNAL', 'unexpected server error'));
}
