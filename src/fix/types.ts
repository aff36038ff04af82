/** What `lint --fix` plans and applies (docs/fixes.md). */
import type { FieldPath } from '../field-path.js';
import type { TextEdit } from '../parse/edit.js';

export type { TextEdit } from '../parse/edit.js';

/**
 * How the tool proves an edit: the objects of the file, read again and defaulted, must be what
 * `expect` makes of the objects before it. A fix whose proof fails is dropped.
 */
export interface ObjectKey {
  readonly documentIndex: number;
  readonly basePath: FieldPath;
}

export interface Fix {
  /** The finding it belongs to. */
  readonly ruleId: string;
  readonly file: string;
  readonly documentIndex: number;
  readonly fieldPath: string | null;
  /** The finding's line, for showing the fix beside it. */
  readonly line: number;
  /** One line: what the edit does, e.g. `write failurePolicy: Fail (the API default)`. */
  readonly description: string;
  /**
   * `fix`: keeps what the object does on the target version (or is about the API rejecting it);
   * `lint --fix` applies it. `suggestion`: changes behaviour; shown, never applied.
   */
  readonly kind: 'fix' | 'suggestion';
  /** Whether the finding is gone once the edit is made (else the edit only makes a default explicit). */
  readonly resolves: boolean;
  readonly edits: readonly TextEdit[];
  /** The object the edit changes, and what its effective configuration must be after the edit. */
  readonly object: ObjectKey;
  readonly expect: (effectiveBefore: unknown) => unknown;
  /** The edit makes an object the API server could not decode decodable (a value quoted as the string it was meant to be). */
  readonly decodes?: boolean;
  /** Fields (of the object) that must be written, no longer defaulted, after the edit. */
  readonly written: readonly FieldPath[];
}
