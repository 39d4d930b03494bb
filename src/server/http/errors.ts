import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
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
  DEMO_ONLY: 403,
  NOT_FOUND: 404,
  SOLD_OUT: 409,
  PLAY_ID_REUSED: 409,
  BALANCE_NOT_LOW: 409,
  REQUEST_TIMEOUT: 408,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  WALLET_UNAVAILABLE: 503,
  SHUTTING_DOWN: 503,
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

/** Errors Fastify raises before any route is found: in the API's shape, the URL never echoed. */
export function handleFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.code(414).send(errorBody('INVALID_INPUT', 'the URL is too long'));
  } else if (error.code === 'FST_ERR_BAD_URL') {
    void reply.code(400).send(errorBody('INVALID_INPUT', 'the URL has a malformed percent-escape'));
  } else {
    void reply.code(500).send(errorBody('INTERNAL', 'unexpected server error'));
  }
}

/**
 * Answers what Node's HTTP parser refuses before Fastify sees a request (a malformed request
 * line or method, headers over 16 KiB, a request not received in time), in the API's shape,
 * written straight to the socket, which is then closed: the rest of that request is not read.
 */
export function clientErrorHandler(requestTimeoutMs: number): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    let status = 400;
    let body = errorBody('INVALID_INPUT', 'malformed HTTP request');
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      status = 408;
      const seconds = requestTimeoutMs / 1000;
      body = errorBody('REQUEST_TIMEOUT', `the request was not received in full within ${seconds} s`);
    } else if (error.code === 'HPE_HEADER_OVERFLOW') {
      status = 431;
      body = errorBody('INVALID_INPUT', 'the request headers are too large');
    }
    const json = JSON.stringify(body);
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
          `content-length: ${Buffer.byteLength(json)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${json}`,
      );
    }
    socket.destroy();
  };
}
