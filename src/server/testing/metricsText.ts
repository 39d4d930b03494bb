import { expect } from 'vitest';

/**
 * A metric's value in Prometheus' text format: the line `name{labels} value`, labels as
 * written (`+Inf` read as Infinity); undefined when the scrape has no such sample.
 */
export function sample(text: string, name: string, labels = ''): number | undefined {
  const prefix = labels ? `${name}{${labels}} ` : `${name} `;
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  if (line === undefined) return undefined;
  const value = line.slice(prefix.length);
  return value === '+Inf' ? Infinity : Number(value);
}

/** GET the server's /metrics: 200, Prometheus' text format. */
export async function scrape(server: { metricsUrl: string | null }): Promise<string> {
  const response = await fetch(server.metricsUrl!);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}
