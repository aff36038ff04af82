/**
 * How a library is written down: functions by name, each with its overloads as
 * `'overload_id: signature'` strings (types.ts parses the signatures), plus the type names and
 * macros the library adds. Each library names the upstream file it transcribes.
 */
import { collectParams, parseSignature, type CelType } from './types.js';

export type MacroName =
  | 'has'
  | 'all'
  | 'exists'
  | 'exists_one'
  | 'map'
  | 'filter'
  /** ext.TwoVarComprehensions: all/exists/existsOne/exists_one with (k, v, predicate). */
  | 'all2'
  | 'exists2'
  | 'existsOne2'
  | 'exists_one2'
  | 'transformList'
  | 'transformMap'
  | 'transformMapEntry'
  /** cel.OptionalTypes. */
  | 'optMap'
  | 'optFlatMap'
  /** ext.Lists version 2 and later. */
  | 'sortBy';

export interface LibraryData {
  /** Upstream file (repository path at the version named in environment/index.ts). */
  readonly source: string;
  readonly functions: Readonly<Record<string, readonly string[]>>;
  /** Type identifiers the library declares (usable as values: `type(x) == net.IP`). */
  readonly types?: readonly string[];
  readonly macros?: readonly MacroName[];
  /** Overload ids the checker filters out unless a feature enables them. */
  readonly disabledUnless?: { readonly feature: string; readonly overloads: readonly string[] };
}

export interface OverloadDecl {
  readonly id: string;
  readonly member: boolean;
  /** Argument types; for a member overload the receiver comes first (as cel-go declares it). */
  readonly args: readonly CelType[];
  readonly result: CelType;
  readonly typeParams: readonly string[];
}

export interface FunctionDecl {
  readonly name: string;
  readonly overloads: readonly OverloadDecl[];
}

export function parseOverload(text: string): OverloadDecl {
  const colon = text.indexOf(': ');
  if (colon < 0) throw new Error(`overload without id: '${text}'`);
  const id = text.slice(0, colon);
  const signature = parseSignature(text.slice(colon + 2));
  const args = signature.receiver ? [signature.receiver, ...signature.params] : signature.params;
  const params = new Set<string>();
  for (const a of args) collectParams(a, params);
  collectParams(signature.result, params);
  return { id, member: signature.receiver !== undefined, args, result: signature.result, typeParams: [...params] };
}

/** Overloads of one function for each of several types (cel-go's templatedOverloads). */
export function templated(types: readonly string[], make: (type: string) => string): string[] {
  return types.map(make);
}
