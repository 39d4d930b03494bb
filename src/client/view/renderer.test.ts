import { describe, expect, it } from 'vitest';
import { readPageOptions } from '../pageOptions.ts';
import { isSoftwareRenderer, rendererPreference } from './renderer.ts';

const forcedBy = (search: string) => readPageOptions({ search, hash: '' }).renderer;

describe('rendererPreference', () => {
  it('uses WebGL only when a fast one is there', () => {
    expect(rendererPreference(forcedBy(''), () => true)).toEqual(['webgl', 'canvas']);
    expect(rendererPreference(forcedBy(''), () => false)).toEqual(['canvas']);
  });

  it('obeys ?renderer= without probing', () => {
    const probe = () => {
      throw new Error('must not probe');
    };
    expect(rendererPreference(forcedBy('?renderer=webgl'), probe)).toEqual(['webgl']);
    expect(rendererPreference(forcedBy('?renderer=canvas'), probe)).toEqual(['canvas']);
  });
});

describe('isSoftwareRenderer', () => {
  it('spots software rasterisers', () => {
    expect(
      isSoftwareRenderer(
        'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)',
      ),
    ).toBe(true);
    expect(isSoftwareRenderer('llvmpipe (LLVM 15.0.6, 256 bits)')).toBe(true);
    expect(isSoftwareRenderer('ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0, D3D11)')).toBe(false);
    expect(isSoftwareRenderer('Apple M2')).toBe(false);
  });
});
