/** The verify commands' arguments, strictly (node:util parseArgs): only the options named, and --help. */
import { parseArgs } from 'node:util';
import { HELP_OPTION, UsageError, parseCommandLine } from '../common/commandLine.ts';

export { UsageError };

/** `args` with the string options `names` and exactly `positionals` positionals (a FILE, a URL). */
export function commandArgs<const Name extends string>(
  command: string,
  args: string[],
  names: readonly Name[],
  positionals: number,
): { positional: string[]; options: Partial<Record<Name, string>> } {
  const options = Object.fromEntries(names.map((name) => [name, { type: 'string' as const }]));
  const parsed = parseCommandLine(() =>
    parseArgs({ args, options: { ...HELP_OPTION, ...options }, allowPositionals: true, strict: true }),
  );
  if (parsed.positionals.length > positionals)
    throw new UsageError(`unexpected argument ${parsed.positionals[positionals]}`);
  if (parsed.positionals.length < positionals) {
    throw new UsageError(`${command} takes exactly one ${command === 'monitor' ? 'URL' : 'FILE'}`);
  }
  const { help: _help, ...values } = parsed.values;
  return { positional: parsed.positionals, options: values as Partial<Record<Name, string>> };
}
