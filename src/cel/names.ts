/** Names CEL source uses that are not variables: library receivers and comprehension macros. */

/** Receivers that name a library namespace (`sets.contains(…)`, `cel.bind`, `optional.of`), not a variable. */
export const LIBRARY_NAMESPACES: ReadonlySet<string> = new Set(['cel', 'optional', 'sets', 'lists', 'strings', 'format', 'math', 'base64', 'ip']);
/** Macros that bind one iteration variable (`list.all(x, …)`). */
export const ONE_VARIABLE_MACROS: ReadonlySet<string> = new Set(['all', 'exists', 'exists_one', 'map', 'filter', 'sortBy']);
/** Macros that bind two (`map.all(k, v, …)`, `transformList(i, v, …)`). */
export const TWO_VARIABLE_MACROS: ReadonlySet<string> = new Set(['all', 'exists', 'existsOne', 'transformList', 'transformMap', 'transformMapEntry']);
