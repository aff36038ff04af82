/**
 * Errors the user can act on carry a one-line message (and a hint); the CLI prints them and
 * exits 2. Anything that is not a UserError is a bug in admission-lint and is reported as such.
 */
export class UserError extends Error {
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.name = new.target.name;
    this.hint = hint;
  }
}

/** Bad flags, unknown rule ids, unknown subcommands. */
export class UsageError extends UserError {}

/** A path that does not exist or cannot be read. */
export class InputError extends UserError {}

/** A bug: a rule crashed, an invariant broke. Carries where it happened. */
export class InternalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InternalError';
  }
}

export function invariant(condition: unknown, reason: string): asserts condition {
  if (!condition) throw new InternalError(`invariant failed: ${reason}`);
}

/** A config file that cannot be read, parsed or validated; the message names the file and key. */
export class ConfigError extends UserError {}

/**
 * An output destination (`--output`, `--write-baseline`) the CLI refuses: a symbolic link, not a
 * regular file, an input of the run, or the destination of another output. Carries the option and
 * the path as given.
 */
export class OutputPathError extends UsageError {
  constructor(
    readonly flag: string,
    readonly path: string,
    problem: string,
  ) {
    super(`${flag} ${path}: ${problem}`);
  }
}
