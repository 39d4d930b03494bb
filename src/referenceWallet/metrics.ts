import type http from 'node:http';
import client from 'prom-client';

/**
 * The reference wallet's `GET /metrics` (Prometheus text format): its process's own series
 * (`process_*`, `nodejs_*`), so that a scraper sees it up, or down. Unsigned, like /health.
 */
export function walletMetrics(): (response: http.ServerResponse) => Promise<void> {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  return async (response) => {
    const text = await registry.metrics();
    response.writeHead(200, { 'content-type': registry.contentType }).end(text);
  };
}
