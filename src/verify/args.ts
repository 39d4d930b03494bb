/** The verify command's arguments: positionals and `--name value` options. */

export class UsageError extends Error {}

export function parse(
  args: string[],
  allowed: readonly string[],
): { positional: string[]; options: Map<string, string> } {
  const positional: string[] = [];
  const options = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const name = arg.slice(2);
    const value = args[++i];
    if (!allowed.includes(name)) throw new UsageError(`unknown option --${name}`);
    if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
    options.set(name, value);
  }
  return { positional, options };
}
