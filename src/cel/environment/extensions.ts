/**
 * cel-go's extension libraries that Kubernetes enables (environment/base.go), as cel-go v0.26.0
 * declares them: ext/strings.go (versions 0 and 2), ext/sets.go, ext/lists.go (version 3),
 * ext/comprehensions.go, and the optional types library (cel/library.go optionalLib, at its
 * latest version, which cel.OptionalTypes() selects).
 */
import type { LibraryData } from './library.js';
import { templated } from './library.js';

const STRINGS_V0 = {
  charAt: ['string_char_at_int: string.(int) -> string'],
  indexOf: ['string_index_of_string: string.(string) -> int', 'string_index_of_string_int: string.(string, int) -> int'],
  lastIndexOf: ['string_last_index_of_string: string.(string) -> int', 'string_last_index_of_string_int: string.(string, int) -> int'],
  lowerAscii: ['string_lower_ascii: string.() -> string'],
  replace: ['string_replace_string_string: string.(string, string) -> string', 'string_replace_string_string_int: string.(string, string, int) -> string'],
  split: ['string_split_string: string.(string) -> list(string)', 'string_split_string_int: string.(string, int) -> list(string)'],
  substring: ['string_substring_int: string.(int) -> string', 'string_substring_int_int: string.(int, int) -> string'],
  trim: ['string_trim: string.() -> string'],
  upperAscii: ['string_upper_ascii: string.() -> string'],
};

export const STRINGS_VERSION_0: LibraryData = {
  source: 'google/cel-go@v0.26.0 ext/strings.go (StringsVersion(0))',
  functions: STRINGS_V0,
};

/** Version 1 adds format and strings.quote (with the format-string validator), version 2 join. */
export const STRINGS_VERSION_2: LibraryData = {
  source: 'google/cel-go@v0.26.0 ext/strings.go (StringsVersion(2)); format validator ext/formatting.go stringFormatValidator',
  functions: {
    ...STRINGS_V0,
    format: ['string_format: string.(list(dyn)) -> string'],
    'strings.quote': ['strings_quote: (string) -> string'],
    join: ['list_join: list(string).() -> string', 'list_join_string: list(string).(string) -> string'],
  },
};

export const SETS: LibraryData = {
  source: 'google/cel-go@v0.26.0 ext/sets.go',
  functions: {
    'sets.contains': ['list_sets_contains_list: (list(T), list(T)) -> bool'],
    'sets.equivalent': ['list_sets_equivalent_list: (list(T), list(T)) -> bool'],
    'sets.intersects': ['list_sets_intersects_list: (list(T), list(T)) -> bool'],
  },
};

const COMPARABLE = ['int', 'uint', 'double', 'bool', 'duration', 'timestamp', 'string', 'bytes'];
/** cel-go's TypeName() of each comparable type, used in the overload ids. */
const RUNTIME_NAME: Record<string, string> = { duration: 'google.protobuf.Duration', timestamp: 'google.protobuf.Timestamp' };

export const LISTS_VERSION_3: LibraryData = {
  source: 'google/cel-go@v0.26.0 ext/lists.go (ListsVersion(3))',
  macros: ['sortBy'],
  functions: {
    slice: ['list_slice: list(T).(int, int) -> list(T)'],
    flatten: ['list_flatten: list(list(T)).() -> list(T)', 'list_flatten_int: list(dyn).(int) -> list(dyn)'],
    sort: templated(COMPARABLE, (t) => `list_${RUNTIME_NAME[t] ?? t}_sort: list(${t}).() -> list(${t})`),
    '@sortByAssociatedKeys': templated(COMPARABLE, (u) => `list_${RUNTIME_NAME[u] ?? u}_sortByAssociatedKeys: list(T).(list(${u})) -> list(T)`),
    'lists.range': ['lists_range: (int) -> list(int)'],
    reverse: ['list_reverse: list(T).() -> list(T)'],
    distinct: ['list_distinct: list(T).() -> list(T)'],
  },
};

export const TWO_VAR_COMPREHENSIONS: LibraryData = {
  source: 'google/cel-go@v0.26.0 ext/comprehensions.go',
  macros: ['all2', 'exists2', 'existsOne2', 'exists_one2', 'transformList', 'transformMap', 'transformMapEntry'],
  functions: {
    'cel.@mapInsert': ['@mapInsert_map_key_value: (map(K, V), K, V) -> map(K, V)', '@mapInsert_map_map: (map(K, V), map(K, V)) -> map(K, V)'],
  },
};

export const OPTIONAL_TYPES: LibraryData = {
  source: 'google/cel-go@v0.26.0 cel/library.go optionalLib (cel.OptionalTypes(), latest version)',
  types: ['optional_type'],
  macros: ['optMap', 'optFlatMap'],
  functions: {
    'optional.of': ['optional_of: (V) -> optional_type(V)'],
    'optional.ofNonZeroValue': ['optional_ofNonZeroValue: (V) -> optional_type(V)'],
    'optional.none': ['optional_none: () -> optional_type(V)'],
    value: ['optional_value: optional_type(V).() -> V'],
    hasValue: ['optional_hasValue: optional_type(V).() -> bool'],
    or: ['optional_or_optional: optional_type(V).(optional_type(V)) -> optional_type(V)'],
    orValue: ['optional_orValue_value: optional_type(V).(V) -> V'],
    '_?._': ['select_optional_field: (dyn, string) -> optional_type(V)'],
    '_[?_]': [
      'list_optindex_optional_int: (list(V), int) -> optional_type(V)',
      'optional_list_optindex_optional_int: (optional_type(list(V)), int) -> optional_type(V)',
      'map_optindex_optional_value: (map(K, V), K) -> optional_type(V)',
      'optional_map_optindex_optional_value: (optional_type(map(K, V)), K) -> optional_type(V)',
    ],
    '_[_]': ['optional_list_index_int: (optional_type(list(V)), int) -> optional_type(V)', 'optional_map_index_value: (optional_type(map(K, V)), K) -> optional_type(V)'],
    last: ['list_last: list(V).() -> optional_type(V)'],
    first: ['list_first: list(V).() -> optional_type(V)'],
    'optional.unwrap': ['optional_unwrap: (list(optional_type(V))) -> list(V)'],
    unwrapOpt: ['optional_unwrapOpt: list(optional_type(V)).() -> list(V)'],
  },
};
