import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every response. The CSP allows exactly what the Pixi client needs
 * (inline styles, data:/blob: images, audio and workers) and lets only the game itself
 * and the configured portal origins frame it.
 */
export function contentSecurityPolicy(portalOrigins: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "media-src 'self' data: blob:",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${["'self'", ...portalOrigins].join(' ')}`,
  ].join('; ');
}

export function registerSecurityHeaders(app: FastifyInstance, portalOrigins: readonly string[]): void {
  const csp = contentSecurityPolicy(portalOrigins);
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('content-security-policy', csp);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-resource-policy', 'same-origin');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
