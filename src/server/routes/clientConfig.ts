import { ClientConfigResponseSchema, NoQuerySchema, type ClientConfigResponse } from '../../contract/api.ts';
import type { ApiServer } from '../http/apiServer.ts';
import type { AppContext } from '../http/context.ts';
import { withErrors } from '../http/schemas.ts';

/**
 * `GET /api/client-config`: what the browser needs of the server's configuration. The
 * portal bridge talks only to these origins (the same ones the CSP's frame-ancestors
 * names, so nothing here is secret). No session needed: the game asks before it has one.
 */
export function registerClientConfigRoute(app: ApiServer, ctx: AppContext): void {
  app.get(
    '/api/client-config',
    {
      schema: {
        querystring: NoQuerySchema,
        response: withErrors(ClientConfigResponseSchema, 400, 429),
      },
    },
    async (): Promise<ClientConfigResponse> => ({
      portalOrigins: [...ctx.config.portalOrigins],
      demoMode: ctx.config.demoMode,
    }),
  );
}
