import type { FastifyInstance } from 'fastify';
import type { ClientConfigResponse } from '../../rules/index.ts';
import type { AppContext } from '../app.ts';
import { withErrors } from '../http/schemas.ts';

export const clientConfigSchema = {
  type: 'object',
  properties: {
    portalOrigins: { type: 'array', items: { type: 'string' } },
    demoMode: { type: 'boolean' },
  },
  required: ['portalOrigins', 'demoMode'],
  additionalProperties: false,
} as const;

/**
 * `GET /api/client-config`: what the browser needs of the server's configuration. The
 * portal bridge talks only to these origins (the same ones the CSP's frame-ancestors
 * names, so nothing here is secret). No session needed: the game asks before it has one.
 */
export function registerClientConfigRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/api/client-config',
    {
      schema: {
        querystring: { type: 'object', additionalProperties: false, properties: {} },
        response: withErrors(clientConfigSchema, 400, 429),
      },
    },
    async (): Promise<ClientConfigResponse> => ({
      portalOrigins: [...ctx.config.portalOrigins],
      demoMode: ctx.config.demoMode,
    }),
  );
}
