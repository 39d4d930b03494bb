import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const FILE = fileURLToPath(new URL('../BENCHMARKS.md', import.meta.url));

/**
 * `markdown` with its `title` section (up to the next `## `) replaced by `section`, or with
 * `section` appended. With `keepNotes`, the old section's hand-written `### …` part (the
 * reading of the figures) stays below the new figures.
 */
export function replaceSection(markdown: string, title: string, section: string, keepNotes = false): string {
  const start = markdown.indexOf(`\n${title}\n`);
  if (start < 0) return markdown.trimEnd() + '\n\n' + section;
  const next = markdown.indexOf('\n## ', start + 1);
  let notes = '';
  if (keepNotes) {
    const old = markdown.slice(start + 1, next < 0 ? undefined : next + 1);
    const notesAt = old.indexOf('\n### ');
    if (notesAt >= 0) notes = '\n' + old.slice(notesAt + 1).trimEnd() + '\n';
  }
  return markdown.slice(0, start + 1) + section + notes + (next < 0 ? '' : '\n' + markdown.slice(next + 1));
}

/**
 * Writes one section of BENCHMARKS.md, formatted as prettier formats the repository (its
 * tables aligned). The file is in .prettierignore, so `prettier --write` would skip it;
 * prettier is imported here, not at the top, so that the measured processes never load it.
 */
export async function writeBenchmarkSection(title: string, section: string, keepNotes = false): Promise<void> {
  const current = fs.existsSync(FILE) ? fs.readFileSync(FILE, 'utf8') : '# Benchmarks\n';
  const { format, resolveConfig } = await import('prettier');
  const next = replaceSection(current, title, section, keepNotes);
  fs.writeFileSync(FILE, await format(next, { ...(await resolveConfig(FILE)), filepath: FILE }));
  console.log(`BENCHMARKS.md: ${title} updated`);
}

/**
 * `markdown` with the `subTitle` (`### …`) part of its `title` section replaced by
 * `subsection` (up to the next `### ` or `## `), or with it added at the section's end
 * (the section is added too if it is missing).
 */
export function replaceSubsection(markdown: string, title: string, subTitle: string, subsection: string): string {
  const start = markdown.indexOf(`\n${title}\n`);
  if (start < 0) return markdown.trimEnd() + '\n\n' + title + '\n\n' + subsection;
  const nextSection = markdown.indexOf('\n## ', start + 1);
  const sectionEnd = nextSection < 0 ? markdown.length : nextSection + 1;
  const subStart = markdown.indexOf(`\n${subTitle}\n`, start);
  if (subStart < 0 || subStart >= sectionEnd) {
    const before = markdown.slice(0, sectionEnd).trimEnd();
    return before + '\n\n' + subsection + (nextSection < 0 ? '' : '\n' + markdown.slice(sectionEnd));
  }
  const nextSub = markdown.indexOf('\n### ', subStart + 1);
  const subEnd = nextSub >= 0 && nextSub < sectionEnd ? nextSub + 1 : sectionEnd;
  return markdown.slice(0, subStart + 1) + subsection + (subEnd < markdown.length ? '\n' + markdown.slice(subEnd) : '');
}

/** Writes one `### ` part of a section of BENCHMARKS.md, formatted like writeBenchmarkSection. */
export async function writeBenchmarkSubsection(title: string, subTitle: string, subsection: string): Promise<void> {
  const current = fs.existsSync(FILE) ? fs.readFileSync(FILE, 'utf8') : '# Benchmarks\n';
  const { format, resolveConfig } = await import('prettier');
  const next = replaceSubsection(current, title, subTitle, subsection);
  fs.writeFileSync(FILE, await format(next, { ...(await resolveConfig(FILE)), filepath: FILE }));
  console.log(`BENCHMARKS.md: ${title} › ${subTitle} updated`);
}
