/**
 * What the output may assume about where it goes: colours, and the width to wrap at. Both only
 * for a person at a terminal; a pipe, a file or a CI log gets plain, unwrapped lines.
 */

/** stdout as the CLI sees it: a terminal reports itself and its width. */
export interface TerminalStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
}

interface Where {
  readonly stdout: TerminalStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export function useColor(flags: { color: boolean; output?: string }, where: Where): boolean {
  if (!flags.color || flags.output !== undefined) return false;
  if (where.env.NO_COLOR !== undefined && where.env.NO_COLOR !== '') return false;
  if (where.env.FORCE_COLOR !== undefined && where.env.FORCE_COLOR !== '0') return true;
  return where.stdout.isTTY === true;
}

/**
 * The width to wrap stylish output at, or undefined for no wrapping. Only a terminal is wrapped,
 * at its width, which a `COLUMNS` variable overrides (as for `ls` and `git`). Output that is not
 * a terminal is not wrapped, whatever COLUMNS says: grep, editors and CI log viewers want one
 * finding per line, and log viewers wrap for themselves (Ruff and ESLint never wrap either).
 */
export function wrapWidth(flags: { output?: string }, where: Where): number | undefined {
  if (flags.output !== undefined || where.stdout.isTTY !== true) return undefined;
  const fromEnv = /^\d+$/.test(where.env.COLUMNS ?? '') ? Number(where.env.COLUMNS) : undefined;
  const width = fromEnv ?? where.stdout.columns;
  return width !== undefined && width > 0 ? width : undefined;
}
