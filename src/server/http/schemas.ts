import { ApiErrorSchema } from '../../contract/api.ts';

/** Standard error responses, so that they are documented with each route. */
export function withErrors(ok: object, ...statuses: number[]): Record<number, object> {
  const responses: Record<number, object> = { 200: ok };
  for (const s of statuses) responses[s] = ApiErrorSchema;
  return responses;
}
