import type { RendererPreference } from 'pixi.js';
import type { RendererChoice } from '../pageOptions.ts';

/**
 * Which Pixi backend to use. WebGL only where the browser offers a real GPU: a context
 * made with `failIfMajorPerformanceCaveat`, whose renderer is not a software
 * rasteriser (Chromium still hands SwiftShader out under that flag in headless and
 * blocklisted setups). Elsewhere the 2D canvas renderer, which holds 60 fps there.
 * `forced` (the page's `?renderer=webgl|canvas`) picks one for benchmarks and tests.
 */
export function rendererPreference(forced: RendererChoice | null, hasFastWebGL: () => boolean): RendererPreference[] {
  if (forced) return [forced];
  return hasFastWebGL() ? ['webgl', 'canvas'] : ['canvas'];
}

const SOFTWARE = /swiftshader|llvmpipe|softpipe|software|basic render|mesa offscreen|subzero/i;

export function isSoftwareRenderer(rendererName: string): boolean {
  return SOFTWARE.test(rendererName);
}

/** Probes the browser once: a hardware WebGL context, or none. */
export function hasFastWebGL(): boolean {
  const canvas = document.createElement('canvas');
  const attributes: WebGLContextAttributes = { failIfMajorPerformanceCaveat: true };
  const gl = (canvas.getContext('webgl2', attributes) ??
    canvas.getContext('webgl', attributes)) as WebGLRenderingContext | null;
  if (!gl) return false;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '');
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return !isSoftwareRenderer(name);
}
