import type { TSchema } from '@sinclair/typebox';
import { ApiErrorSchema } from '../../contract/api.ts';

/** The error statuses a route may answer with, each with the API's error body. */
type ErrorResponses<Statuses extends readonly number[]> = { [Status in Statuses[number]]: typeof ApiErrorSchema };

/**
 * Standard error responses, so that they are documented with each route; the statuses are
 * kept as literal keys, so that a handler's reply type is its schema's or the error body.
 */
export function withErrors<Ok extends TSchema, const Statuses extends readonly number[]>(
  ok: Ok,
  ...statuses: Statuses
): { 200: Ok } & ErrorResponses<Statuses> {
  const responses: Record<number, TSchema> = { 200: ok };
  for (const s of statuses) responses[s] = ApiErrorSchema;
  return responses as { 200: Ok } & ErrorResponses<Statuses>;
}
