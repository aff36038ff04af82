/**
 * CEL's standard library as cel-go v0.26.0 declares it (common/stdlib/standard.go), with the
 * cross-type numeric comparison overloads that the checker filters out unless
 * cel.CrossTypeNumericComparisons(true) is set (checker/env.go crossTypeNumericComparisonOverloads).
 */
import type { LibraryData } from './library.js';

const ORDERED = [
  ['bool', 'bool', 'bool'],
  ['int64', 'int', 'int'],
  ['int64_double', 'int', 'double'],
  ['int64_uint64', 'int', 'uint'],
  ['uint64', 'uint', 'uint'],
  ['uint64_double', 'uint', 'double'],
  ['uint64_int64', 'uint', 'int'],
  ['double', 'double', 'double'],
  ['double_int64', 'double', 'int'],
  ['double_uint64', 'double', 'uint'],
  ['string', 'string', 'string'],
  ['bytes', 'bytes', 'bytes'],
  ['timestamp', 'timestamp', 'timestamp'],
  ['duration', 'duration', 'duration'],
] as const;

const comparison = (prefix: string): string[] => ORDERED.map(([id, l, r]) => `${prefix}_${id}: (${l}, ${r}) -> bool`);

const CROSS_TYPE = ['int64_double', 'int64_uint64', 'uint64_double', 'uint64_int64', 'double_int64', 'double_uint64'];

const timeGetter = (name: string, id: string, withDuration: boolean): [string, string[]] => [
  name,
  [
    `timestamp_to_${id}: timestamp.() -> int`,
    `timestamp_to_${id}_with_tz: timestamp.(string) -> int`,
    ...(withDuration ? [`duration_to_${id}: duration.() -> int`] : []),
  ],
];

export const STANDARD_LIBRARY: LibraryData = {
  source: 'google/cel-go@v0.26.0 common/stdlib/standard.go',
  types: ['bool', 'bytes', 'double', 'google.protobuf.Duration', 'int', 'list', 'map', 'null_type', 'string', 'google.protobuf.Timestamp', 'type', 'uint'],
  macros: ['has', 'all', 'exists', 'exists_one', 'map', 'filter'],
  disabledUnless: {
    feature: 'crossTypeNumericComparisons',
    overloads: ['less', 'less_equals', 'greater', 'greater_equals'].flatMap((p) => CROSS_TYPE.map((c) => `${p}_${c}`)),
  },
  functions: {
    '_?_:_': ['conditional: (bool, A, A) -> A'],
    '_&&_': ['logical_and: (bool, bool) -> bool'],
    '_||_': ['logical_or: (bool, bool) -> bool'],
    '!_': ['logical_not: (bool) -> bool'],
    '@not_strictly_false': ['not_strictly_false: (bool) -> bool'],
    '_==_': ['equals: (A, A) -> bool'],
    '_!=_': ['not_equals: (A, A) -> bool'],
    '_+_': [
      'add_bytes: (bytes, bytes) -> bytes',
      'add_double: (double, double) -> double',
      'add_duration_duration: (duration, duration) -> duration',
      'add_duration_timestamp: (duration, timestamp) -> timestamp',
      'add_timestamp_duration: (timestamp, duration) -> timestamp',
      'add_int64: (int, int) -> int',
      'add_list: (list(A), list(A)) -> list(A)',
      'add_string: (string, string) -> string',
      'add_uint64: (uint, uint) -> uint',
    ],
    '_/_': ['divide_double: (double, double) -> double', 'divide_int64: (int, int) -> int', 'divide_uint64: (uint, uint) -> uint'],
    '_%_': ['modulo_int64: (int, int) -> int', 'modulo_uint64: (uint, uint) -> uint'],
    '_*_': ['multiply_double: (double, double) -> double', 'multiply_int64: (int, int) -> int', 'multiply_uint64: (uint, uint) -> uint'],
    '-_': ['negate_double: (double) -> double', 'negate_int64: (int) -> int'],
    '_-_': [
      'subtract_double: (double, double) -> double',
      'subtract_duration_duration: (duration, duration) -> duration',
      'subtract_int64: (int, int) -> int',
      'subtract_timestamp_duration: (timestamp, duration) -> timestamp',
      'subtract_timestamp_timestamp: (timestamp, timestamp) -> duration',
      'subtract_uint64: (uint, uint) -> uint',
    ],
    '_<_': comparison('less'),
    '_<=_': comparison('less_equals'),
    '_>_': comparison('greater'),
    '_>=_': comparison('greater_equals'),
    '_[_]': ['index_list: (list(A), int) -> A', 'index_map: (map(A, B), A) -> B'],
    '@in': ['in_list: (A, list(A)) -> bool', 'in_map: (A, map(A, B)) -> bool'],
    size: [
      'size_bytes: (bytes) -> int',
      'bytes_size: bytes.() -> int',
      'size_list: (list(A)) -> int',
      'list_size: list(A).() -> int',
      'size_map: (map(A, B)) -> int',
      'map_size: map(A, B).() -> int',
      'size_string: (string) -> int',
      'string_size: string.() -> int',
    ],
    type: ['type: (A) -> type(A)'],
    bool: ['bool_to_bool: (bool) -> bool', 'string_to_bool: (string) -> bool'],
    bytes: ['bytes_to_bytes: (bytes) -> bytes', 'string_to_bytes: (string) -> bytes'],
    double: ['double_to_double: (double) -> double', 'int64_to_double: (int) -> double', 'string_to_double: (string) -> double', 'uint64_to_double: (uint) -> double'],
    duration: ['duration_to_duration: (duration) -> duration', 'int64_to_duration: (int) -> duration', 'string_to_duration: (string) -> duration'],
    dyn: ['to_dyn: (A) -> dyn'],
    int: [
      'int64_to_int64: (int) -> int',
      'double_to_int64: (double) -> int',
      'duration_to_int64: (duration) -> int',
      'string_to_int64: (string) -> int',
      'timestamp_to_int64: (timestamp) -> int',
      'uint64_to_int64: (uint) -> int',
    ],
    string: [
      'string_to_string: (string) -> string',
      'bool_to_string: (bool) -> string',
      'bytes_to_string: (bytes) -> string',
      'double_to_string: (double) -> string',
      'duration_to_string: (duration) -> string',
      'int64_to_string: (int) -> string',
      'timestamp_to_string: (timestamp) -> string',
      'uint64_to_string: (uint) -> string',
    ],
    timestamp: ['timestamp_to_timestamp: (timestamp) -> timestamp', 'int64_to_timestamp: (int) -> timestamp', 'string_to_timestamp: (string) -> timestamp'],
    uint: ['uint64_to_uint64: (uint) -> uint', 'double_to_uint64: (double) -> uint', 'int64_to_uint64: (int) -> uint', 'string_to_uint64: (string) -> uint'],
    contains: ['contains_string: string.(string) -> bool'],
    endsWith: ['ends_with_string: string.(string) -> bool'],
    startsWith: ['starts_with_string: string.(string) -> bool'],
    matches: ['matches: (string, string) -> bool', 'matches_string: string.(string) -> bool'],
    ...Object.fromEntries([
      timeGetter('getFullYear', 'year', false),
      timeGetter('getMonth', 'month', false),
      timeGetter('getDayOfYear', 'day_of_year', false),
      timeGetter('getDayOfMonth', 'day_of_month_zero_based', false),
      timeGetter('getDate', 'day_of_month_one_based', false),
      timeGetter('getDayOfWeek', 'day_of_week', false),
      timeGetter('getHours', 'hours', true),
      timeGetter('getMinutes', 'minutes', true),
      timeGetter('getSeconds', 'seconds', true),
      timeGetter('getMilliseconds', 'milliseconds', true),
    ]),
  },
};
