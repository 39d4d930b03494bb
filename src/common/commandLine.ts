/**
 * What the command lines (`npm run ops`, `emission`, `verify`) share: each parses its
 * arguments with node:util's `parseArgs` (strict: an unknown flag, a missing value or a
 * stray positional is an error), and a mistaken call exits 2 with the usage on stderr,
 * `--help` exits 0 with the usage on stdout. Pure: the caller passes parseArgs in.
 */

/** A mistake in how the command was called: exit 2, the message and the usage on stderr. */
export class UsageError extends Error {}

/** `--help` (or `-h`) was given: exit 0, the usage on stdout, nothing done. */
export class HelpRequest extends Error {
  constructor() {
    super('help');
  }
}

/** The option every command takes; `parseCommandLine` answers it. */
export const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

/** parseArgs's own refusals (ERR_PARSE_ARGS_UNKNOWN_OPTION, …_INVALID_OPTION_VALUE, …_UNEXPECTED_POSITIONAL). */
function isParseArgsError(error: unknown): error is Error {
  return error instanceof Error && String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_');
}

/**
 * `parse()`'s result (a call to parseArgs), its refusals as a UsageError; `--help` among
 * the options throws a HelpRequest before the command does anything.
 */
export function parseCommandLine<Parsed extends { values: { help?: boolean | undefined } }>(
  parse: () => Parsed,
): Parsed {
  let parsed: Parsed;
  try {
    parsed = parse();
  } catch (error) {
    if (isParseArgsError(error)) throw new UsageError(error.message);
    throw error;
  }
  if (parsed.values.help === true) throw new HelpRequest();
  return parsed;
}

/** Where a command writes: lines on stdout and on stderr. */
export interface CommandOutput {
  out: (line: string) => void;
  err: (line: string) => void;
}

export const consoleOutput: CommandOutput = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
};

/**
 * Runs a command and turns how a call went wrong into its exit code: a HelpRequest prints
 * `usage` on stdout (0), a UsageError prints `name: message` and `usage` on stderr (2);
 * any other error is the caller's to report.
 */
export async function runCommandLine(
  name: string,
  usage: string,
  command: () => number | Promise<number>,
  output: CommandOutput = consoleOutput,
): Promise<number> {
  try {
    return await command();
  } catch (error) {
    if (error instanceof HelpRequest) {
      output.out(usage);
      return 0;
    }
    if (error instanceof UsageError) {
      output.err(`${name}: ${error.message.split('\n')[0]}`);
      output.err(usage);
      return 2;
    }
    throw error;
  }
}
