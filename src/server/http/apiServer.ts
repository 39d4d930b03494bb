import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';

/**
 * The app as the routes see it: each route's body, query, params and reply types are
 * inferred from the TypeBox schemas it declares (src/contract), never written beside them.
 */
export type ApiServer = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** The same app, its routes typed from their schemas (a type-only view: nothing changes at run time). */
export function apiServer(app: FastifyInstance): ApiServer {
  return app.withTypeProvider<TypeBoxTypeProvider>();
}
