import { describe, expect, it } from 'vitest';
import { replaceSection, replaceSubsection } from './benchmarksFile.ts';

const FILE = '# Benchmarks\n\n## PostgreSQL\n\nfigures\n\n### Reading\n\nnotes\n\n## Web\n\nweb\n';

describe('replaceSubsection', () => {
  it('adds the part at the end of its section when it is missing', () => {
    expect(replaceSubsection(FILE, '## PostgreSQL', '### Machines', '### Machines\n\nnew\n')).toBe(
      '# Benchmarks\n\n## PostgreSQL\n\nfigures\n\n### Reading\n\nnotes\n\n### Machines\n\nnew\n\n## Web\n\nweb\n',
    );
  });

  it('replaces only that part, up to the next ### or ##', () => {
    const once = replaceSubsection(FILE, '## PostgreSQL', '### Reading', '### Reading\n\nother\n');
    expect(once).toBe('# Benchmarks\n\n## PostgreSQL\n\nfigures\n\n### Reading\n\nother\n\n## Web\n\nweb\n');
    const withTwo = replaceSubsection(FILE, '## PostgreSQL', '### Machines', '### Machines\n\nnew\n');
    expect(replaceSubsection(withTwo, '## PostgreSQL', '### Reading', '### Reading\n\nother\n')).toContain(
      '### Reading\n\nother\n\n### Machines\n\nnew\n\n## Web',
    );
  });

  it('keeps a part when its whole section is rewritten with its notes', () => {
    const withPart = replaceSubsection(FILE, '## PostgreSQL', '### Machines', '### Machines\n\nnew\n');
    const rewritten = replaceSection(withPart, '## PostgreSQL', '## PostgreSQL\n\nfresh figures\n', true);
    expect(rewritten).toContain('fresh figures\n\n### Reading\n\nnotes\n\n### Machines\n\nnew\n');
  });

  it('adds the section when the file has none', () => {
    expect(replaceSubsection('# Benchmarks\n', '## PostgreSQL', '### Machines', '### Machines\n\nnew\n')).toBe(
      '# Benchmarks\n\n## PostgreSQL\n\n### Machines\n\nnew\n',
    );
  });
});

describe('replaceSection', () => {
  it('tells a section from another whose title begins with its own', () => {
    const file = '# Benchmarks\n\n## Wallet\n\nshared\n\n### Reading\n\nnotes\n\n## Wallet, separate machines\n\nold\n';
    const machines = replaceSection(file, '## Wallet, separate machines', '## Wallet, separate machines\n\nnew\n');
    expect(machines).toBe(
      '# Benchmarks\n\n## Wallet\n\nshared\n\n### Reading\n\nnotes\n\n## Wallet, separate machines\n\nnew\n',
    );
    expect(replaceSection(machines, '## Wallet', '## Wallet\n\nfresh\n', true)).toBe(
      '# Benchmarks\n\n## Wallet\n\nfresh\n\n### Reading\n\nnotes\n\n## Wallet, separate machines\n\nnew\n',
    );
  });
});
