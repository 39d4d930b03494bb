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
