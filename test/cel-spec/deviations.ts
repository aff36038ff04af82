/**
 * The one table of cel-go test cases (@bufbuild/cel-spec testdata: parsing, checking,
 * comprehension) whose outcome in a Kubernetes 1.35 admission environment differs from the one
 * the package records, each with the Kubernetes or cel-go source that causes the difference and
 * the outcome the API server gives instead (what test/cel-spec.test.ts requires of us).
 *
 * The package records what cel-go produced in the environment its generator built: the parser of
 * cel-go's parser_test.go (MaxRecursionDepth(32), ErrorRecoveryLimit(4), every macro, no optional
 * syntax), the checker of checker_test.go's default environment without the per-case options,
 * and, for the comprehension tests, no two-variable macros. Where a case differs in Kubernetes,
 * the expected outcome below comes from cel-go's own test file for that case (its expected type
 * or error), or from the rule the cause names; `basis` says which. An expected text is given
 * where a source gives it; otherwise the row pins the verdict, the stage and the first issue.
 */
import type { CheckStage } from '../../src/cel/check/index.js';
import type { SuiteName } from './harness.js';

const BASE_GO = 'k8s.io/apiserver pkg/cel/environment/base.go (v0.35.0)';

export const CAUSES = {
  optionalSyntax: {
    reason: 'Kubernetes compiles with optional syntax (`.?`, `[?`, `{?k: v}`, `[?x]`): base.go introduces it at 1.28, so new expressions have it on servers from 1.29 (compatibility version n-1); the package parsed without it, while cel-go runs these cases with it on',
    source: `${BASE_GO}: cel.OptionalTypes() (IntroducedVersion 1.28), which turns on parser.EnableOptionalSyntax (cel-go cel/library.go optionalLib); cel-go parser_test.go Opts EnableOptionalSyntax(true), checker_test.go testEnv{optionalSyntax: true}`,
  },
  homogeneousLiterals: {
    reason: 'Kubernetes rejects list and map literals whose elements (keys, values) have different types',
    source: `${BASE_GO}: cel.HomogeneousAggregateLiterals() (1.0) and cel.ASTValidators(cel.ValidateHomogeneousAggregateLiterals()) (1.29); cel-go cel/validator.go homogeneousAggregateLiteralValidator ("expected type '…' but found '…'")`,
  },
  crossTypeNumericComparisons: {
    reason: 'Kubernetes compares int, uint and double across types: base.go introduces it at 1.28 (new expressions from 1.29 servers)',
    source: `${BASE_GO}: cel.CrossTypeNumericComparisons(true) (1.28); cel-go checker_test.go runs these cases with CrossTypeNumericComparisons(true) (outType bool) and one with false`,
  },
  recursionLimit: {
    reason: "cel-go's parser tests set a recursion limit of 32; Kubernetes keeps the default of 250, so these nest within it",
    source: 'cel-go parser/parser_test.go newTestParser MaxRecursionDepth(32); parser/parser.go NewParser default maxRecursionDepth 250; base.go sets no parser option',
  },
  errorRecoveryLimits: {
    reason: "cel-go's parser tests stop error recovery after 4 attempts and 4 lookahead tokens; Kubernetes keeps the defaults (30 and 256), so the limit issue is not reported",
    source: 'cel-go parser/parser_test.go newTestParser ErrorRecoveryLimit(4), ErrorRecoveryLookaheadTokenLimit(4); parser/parser.go NewParser defaults errorRecoveryLimit 30, errorRecoveryTokenLookaheadLimit 256',
  },
  standardMacros: {
    reason: "cel-go's parser tests parse with every macro (AllMacros, including ExistsOneMacroNew `existsOne(x, p)`); Kubernetes has cel.StdLib's StandardMacros, where a two-argument existsOne is a plain call to an undeclared function",
    source: 'cel-go parser/macro.go AllMacros, cel/macro.go StandardMacros (has, all, exists, exists_one, map, filter); ext/comprehensions.go declares existsOne with three arguments only',
  },
  protobufTypes: {
    reason: "the case's typeEnv or expression names protobuf message, wrapper or well-known types (google.expr.proto3.test.TestAllTypes, google.protobuf.Int64Value, …); no Kubernetes environment registers them, so the names are undeclared references there",
    source: `${BASE_GO} and k8s.io/apiserver pkg/admission/plugin/cel/compile.go createEnvForOpts declare only the admission variables (DeclTypes), no cel.Types of protobuf messages`,
  },
  container: {
    reason: 'the case resolves names in a container (cel.Container); Kubernetes sets none, so names resolve only as written',
    source: `${BASE_GO} and k8s.io/apiserver pkg/admission/plugin/cel/compile.go: no cel.Container option`,
  },
  twoVarComprehensions: {
    reason: "the package's generator environment had no two-variable comprehension macros (every case is \"undeclared reference to 'all'\" there); Kubernetes has them since 1.32, so these compile as cel-go's comprehension tests expect",
    source: `${BASE_GO}: ext.TwoVarComprehensions() (1.32); expectations from cel-go ext/comprehensions_test.go (TestTwoVarComprehensions: true; TestTwoVarComprehensionsStaticErrors: the error substring; TestTwoVarComprehensionsRuntimeErrors and Unparse: compiles)`,
  },
  noBindings: {
    reason: 'cel.bind is the ext.Bindings macro, which Kubernetes does not include: `cel` and `bind` are undeclared references',
    source: `${BASE_GO}: no ext.Bindings() in baseOpts (cel-go's comprehension tests add Bindings())`,
  },
  stringsVersion: {
    reason: "string reverse() is ext.Strings version 3; Kubernetes includes version 2, where reverse() exists only for lists (ext.Lists)",
    source: `${BASE_GO}: ext.Strings(ext.StringsVersion(2)) (1.29); cel-go ext/strings.go: reverse from version 3`,
  },
} as const;

export type Cause = keyof typeof CAUSES;

/** What the API server of 1.35 gives for the case, and so what we must give. */
export interface Expected {
  readonly verdict: 'accept' | 'reject';
  /** The result type (cel-go's FormatCELType), for an accepted case. */
  readonly type?: string;
  /** Whether it parses (a rejected case is then rejected by the checker or a validator). */
  readonly parsed?: boolean;
  readonly stage?: CheckStage;
  /** The whole error text (without "compilation failed: "). */
  readonly text?: string;
  /** A text the error text contains. */
  readonly contains?: string;
  /**
   * The issue of a limit cel-go's parser tests set and Kubernetes does not: the text lacks it
   * and starts with the package's other issues (past the limit, cel-go's test parser reported
   * nothing more, while a Kubernetes parser goes on and may report further issues).
   */
  readonly limitIssue?: string;
}

export interface Deviation {
  readonly suite: SuiteName;
  readonly index: number;
  /** A part of the case's expression (guards against a renumbered package). */
  readonly expr: string;
  readonly causes: readonly Cause[];
  readonly k8s: Expected;
  /** Where the expected outcome comes from, when not from the cause alone. */
  readonly basis?: string;
}

const accept = (type: string): Expected => ({ verdict: 'accept', type });
const reject = (extra: Omit<Expected, 'verdict'> = {}): Expected => ({ verdict: 'reject', ...extra });
const undeclared = (name: string, extra: Omit<Expected, 'verdict'> = {}): Expected => reject({ parsed: true, stage: 'check', contains: `undeclared reference to '${name}' (in container '')`, ...extra });
const nested = (depth: number, leaf: string): string => 'list('.repeat(depth) + leaf + ')'.repeat(depth);

const P = 'parsing';
const C = 'checking';
const X = 'comprehension';
const CT = 'cel-go checker/checker_test.go';
const COMP = 'cel-go ext/comprehensions_test.go';

export const DEVIATIONS: readonly Deviation[] = [
  // --- parsing ------------------------------------------------------------------------------
  { suite: P, index: 64, expr: '[].existsOne(__result__', causes: ['standardMacros'], k8s: undeclared('existsOne') },
  { suite: P, index: 142, expr: 'a ? b ((?))', causes: ['errorRecoveryLimits'], k8s: reject({ parsed: false, limitIssue: 'error recovery attempt limit exceeded: 4' }) },
  { suite: P, index: 184, expr: 'x{?.', causes: ['errorRecoveryLimits'], k8s: reject({ parsed: false, limitIssue: 'error recovery attempt limit exceeded: 4' }) },
  { suite: P, index: 145, expr: '¢', causes: ['errorRecoveryLimits'], k8s: reject({ parsed: false, limitIssue: 'error recovery token lookahead limit exceeded: 4' }) },
  { suite: P, index: 143, expr: '[[[[[[[[', causes: ['recursionLimit'], k8s: accept(nested(106, 'string')) },
  { suite: P, index: 144, expr: '-[-1--1--1', causes: ['recursionLimit'], k8s: reject({ parsed: false, limitIssue: 'expression recursion limit exceeded: 32' }) },
  { suite: P, index: 152, expr: 'y!=y!=y!=y', causes: ['recursionLimit'], k8s: undeclared('y') },
  { suite: P, index: 153, expr: "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[['not fine']", causes: ['recursionLimit'], k8s: accept(nested(32, 'string')) },
  { suite: P, index: 154, expr: '1 + 2 + 3 + 4', causes: ['recursionLimit'], k8s: accept('int') },
  { suite: P, index: 155, expr: 'a.b.c.d.e', causes: ['recursionLimit'], k8s: undeclared('a') },
  { suite: P, index: 156, expr: 'a[1][2][3]', causes: ['recursionLimit'], k8s: undeclared('a') },
  { suite: P, index: 157, expr: 'a < 1 < 2', causes: ['recursionLimit'], k8s: undeclared('a') },
  { suite: P, index: 158, expr: 'a[1][2][3]', causes: ['recursionLimit'], k8s: undeclared('a') },
  { suite: P, index: 160, expr: 'a.?b && a[?b]', causes: ['optionalSyntax'], k8s: undeclared('a') },
  { suite: P, index: 161, expr: 'a.?b[?0] && a[?c]', causes: ['optionalSyntax'], k8s: undeclared('a') },
  { suite: P, index: 162, expr: "{?'key': value}", causes: ['optionalSyntax'], k8s: undeclared('value') },
  { suite: P, index: 163, expr: '[?a, ?b]', causes: ['optionalSyntax'], k8s: undeclared('a') },
  { suite: P, index: 164, expr: '[?a[?b]]', causes: ['optionalSyntax'], k8s: undeclared('a') },
  { suite: P, index: 165, expr: '[?a, ?b]', causes: ['optionalSyntax'], k8s: undeclared('a') },
  { suite: P, index: 166, expr: 'Msg{?field: value}', causes: ['optionalSyntax'], k8s: undeclared('Msg') },
  { suite: P, index: 167, expr: 'Msg{?field: value} && ', causes: ['optionalSyntax'], k8s: undeclared('Msg') },

  // --- checking -----------------------------------------------------------------------------
  { suite: C, index: 18, expr: '[1, "A"]', causes: ['homogeneousLiterals'], k8s: reject({ parsed: true, stage: 'validate', contains: "1:5: expected type 'int' but found 'string'" }) },
  { suite: C, index: 26, expr: '[1, 2u] + []', causes: ['homogeneousLiterals'], k8s: reject({ parsed: true, stage: 'validate', contains: "1:5: expected type 'int' but found 'uint'" }) },
  { suite: C, index: 29, expr: '{1:2u, 2u:3}', causes: ['homogeneousLiterals'], k8s: reject({ parsed: true, stage: 'validate', contains: "expected type 'int' but found 'uint'" }) },
  { suite: C, index: 86, expr: '([[[1]], [[2]], [[3]]][0][0]', causes: ['homogeneousLiterals'], k8s: reject({ parsed: true, stage: 'validate', contains: "expected type 'int' but found 'map(string, map(string, string))'" }) },
  { suite: C, index: 134, expr: '{}.map(c,[c,type(c)])', causes: ['homogeneousLiterals'], k8s: reject({ parsed: true, stage: 'validate', contains: "expected type 'dyn' but found 'type(dyn)'" }) },
  ...[30, 31, 32, 46, 93, 94].map((index): Deviation => ({ suite: C, index, expr: 'TestAllTypes', causes: ['protobufTypes', 'container'], k8s: undeclared('TestAllTypes') })),
  ...[128, 129].map((index): Deviation => ({ suite: C, index, expr: 'TestAllTypes{?single_int32', causes: ['protobufTypes', 'container', 'optionalSyntax'], k8s: undeclared('TestAllTypes') })),
  { suite: C, index: 71, expr: '.google.expr.proto3.test.TestAllTypes', causes: ['protobufTypes'], k8s: undeclared('.google') },
  { suite: C, index: 72, expr: 'test.TestAllTypes', causes: ['protobufTypes', 'container'], k8s: undeclared('test') },
  { suite: C, index: 76, expr: 'x', causes: ['protobufTypes', 'container'], k8s: undeclared('x') },
  { suite: C, index: 96, expr: "encode('hello')", causes: ['container'], k8s: undeclared('encode') },
  ...(
    [
      [43, 'x.single_int32 != null', 'x'],
      [44, 'x.single_value + 1', 'x'],
      [45, 'x.single_value[23]', 'x'],
      [48, 'x["claims"]', 'x'],
      [49, 'x + y', 'x'],
      [50, 'x[1u]', 'x'],
      [51, '(x + x)[1]', 'x'],
      [52, 'x.repeated_int64[x.single_int32]', 'x'],
      [53, 'size(x.map_int64_nested_type)', 'x'],
      [55, 'x.repeated_int64.map(x, double(x))', 'x'],
      [56, 'x.repeated_int64.map(x, x > 0', 'x'],
      [57, 'x[2].single_int32', 'x'],
      [58, 'x["a"].single_int32', 'x'],
      [59, 'x.single_nested_message.bb', 'x'],
      [60, 'x.single_nested_message.undefined', 'x'],
      [61, 'x.single_nested_message != null', 'x'],
      [62, 'x.single_int64 != null', 'x'],
      [63, 'x.single_int64_wrapper == null', 'x'],
      [64, 'x.single_bool_wrapper', 'x'],
      [65, 'x.single_timestamp', 'x'],
      [66, 'x.single_bool_wrapper == google.protobuf.BoolValue', 'x'],
      [67, 'x.repeated_int64.exists(y', 'x'],
      [68, 'x.repeated_int64.all(e', 'x'],
      [69, 'x.all(e, 0)', 'x'],
      [74, 'x == google.protobuf.Any{', 'x'],
      [75, 'x == google.protobuf.Any{', 'x'],
      [79, 'size(x) > 4', 'x'],
      [80, 'x.single_int64_wrapper + 1', 'x'],
      [81, 'x.single_int64_wrapper + y', 'x'],
      [92, '!has(pb2.single_int64)', 'pb2'],
      [115, 'type(testAllTypes.nestedgroup', 'testAllTypes'],
      [132, 'null_int == null', 'null_int'],
      [133, 'NotAMessage{}', 'NotAMessage'],
    ] as const
  ).map(([index, expr, name]): Deviation => ({ suite: C, index, expr, causes: ['protobufTypes'], k8s: undeclared(name) })),
  ...[106, 107, 108, 109, 110, 111].map((index): Deviation => ({ suite: C, index, expr: '1 ', causes: ['crossTypeNumericComparisons'], k8s: accept('bool'), basis: `${CT}: outType BoolType with CrossTypeNumericComparisons(true)` })),
  { suite: C, index: 116, expr: 'a.?b', causes: ['optionalSyntax'], k8s: accept('optional_type(string)'), basis: CT },
  { suite: C, index: 117, expr: 'type(a.?b) == optional_type', causes: ['optionalSyntax'], k8s: accept('bool'), basis: CT },
  { suite: C, index: 121, expr: 'has(a.?b.c)', causes: ['optionalSyntax'], k8s: accept('bool'), basis: CT },
  { suite: C, index: 122, expr: "{?'key': {'a': 'b'}.?value}", causes: ['optionalSyntax'], k8s: accept('map(string, string)'), basis: CT },
  { suite: C, index: 123, expr: "{?'key': {'a': 'b'}.?value}.key", causes: ['optionalSyntax'], k8s: accept('string'), basis: CT },
  { suite: C, index: 124, expr: "{?'nested': a.b}", causes: ['optionalSyntax'], k8s: accept('map(string, string)'), basis: CT },
  { suite: C, index: 125, expr: "{?'key': 'hi'}", causes: ['optionalSyntax'], k8s: reject({ parsed: true, text: "ERROR: <input>:1:10: expected type 'optional_type(string)' but found 'string'\n | {?'key': 'hi'}\n | .........^" }), basis: CT },
  { suite: C, index: 126, expr: "[?a, ?b, 'world']", causes: ['optionalSyntax'], k8s: accept('list(string)'), basis: CT },
  { suite: C, index: 127, expr: "[?'value']", causes: ['optionalSyntax'], k8s: reject({ parsed: true, text: "ERROR: <input>:1:3: expected type 'optional_type(string)' but found 'string'\n | [?'value']\n | ..^" }), basis: CT },

  // --- comprehension ------------------------------------------------------------------------
  ...[0, 1, 2, 8, 9, 10, 11, 12, 13, 14, 15, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 34].map(
    (index): Deviation => ({ suite: X, index, expr: '', causes: ['twoVarComprehensions'], k8s: accept('bool'), basis: `${COMP} TestTwoVarComprehensions (evaluates to true)` }),
  ),
  ...[35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 47, 48, 49, 50].map(
    (index): Deviation => ({ suite: X, index, expr: '', causes: ['twoVarComprehensions'], k8s: accept('bool'), basis: `${COMP} TestTwoVarComprehensionsCost (compiles, with the variables it declares; a bool result)` }),
  ),
  ...[78, 79].map((index): Deviation => ({ suite: X, index, expr: "{'a': 'b', 'c': 'd'}.exists", causes: ['twoVarComprehensions'], k8s: accept('bool'), basis: `${COMP} TestTwoVarComprehensionsUnparse (a quantifier: bool)` })),
  ...[3, 4, 5, 6, 7, 16, 17, 46].map((index): Deviation => ({ suite: X, index, expr: '', causes: ['twoVarComprehensions', 'noBindings'], k8s: undeclared('bind') })),
  ...[90, 91].map((index): Deviation => ({ suite: X, index, expr: 'cel.bind(z, y[0]', causes: ['twoVarComprehensions', 'noBindings'], k8s: undeclared('bind') })),
  ...[32, 33].map((index): Deviation => ({ suite: X, index, expr: '', causes: ['twoVarComprehensions', 'stringsVersion'], k8s: reject({ parsed: true, stage: 'check', contains: "found no matching overload for 'reverse' applied to 'string.()'" }) })),
  ...(
    [
      [51, '[].all(i, i, i < i)', 'duplicate variable name: i'],
      [52, '[].all(__result__, i', 'iteration variable overwrites accumulator variable'],
      [53, '[].all(j, __result__', 'iteration variable overwrites accumulator variable'],
      [54, '[].all(i.j, k', 'argument must be a simple name'],
      [55, '[].all(j, i.k', 'argument must be a simple name'],
      [57, '[].exists(i.j, k', 'argument must be a simple name'],
      [58, '[].exists(j, i.k', 'argument must be a simple name'],
      [60, '[].exists_one(i.j, k', 'argument must be a simple name'],
      [61, '[].existsOne(j, i.k', 'argument must be a simple name'],
      [62, '[].exists_one(i.j, k', 'argument must be a simple name'],
      [64, '[].transformList(i.j, k', 'argument must be a simple name'],
      [65, '[].transformList(j, i.k', 'argument must be a simple name'],
      [66, '{}.transformMap(i.j, k', 'argument must be a simple name'],
      [67, '{}.transformMap(j, i.k', 'argument must be a simple name'],
      [68, '{}.transformMapEntry(j, i.k', 'argument must be a simple name'],
      [69, '{}.transformMapEntry(i.j, k', 'argument must be a simple name'],
    ] as const
  ).map(([index, expr, contains]): Deviation => ({ suite: X, index, expr, causes: ['twoVarComprehensions'], k8s: reject({ parsed: false, contains }), basis: `${COMP} TestTwoVarComprehensionsStaticErrors` })),
  ...(
    [
      [56, '1.all(j, k, j < k)', 'cannot be range'],
      [59, "''.exists(j, k, j < k)", 'cannot be range'],
      [63, "''.existsOne(j, k, j < k)", 'cannot be range'],
      [70, "{}.transformMapEntry(j, k, 'bad filter'", 'no matching overload'],
      [71, '[1, 2].transformList(i, v, v % 2 == 0 ? [v] : v)', 'no matching overload'],
      [72, "{'hello': 'world', 'greetings': 'tacocat'}.transformMapEntry(k, v, [])", 'no matching overload'],
    ] as const
  ).map(([index, expr, contains]): Deviation => ({ suite: X, index, expr, causes: ['twoVarComprehensions'], k8s: reject({ parsed: true, stage: 'check', contains }), basis: `${COMP} TestTwoVarComprehensionsStaticErrors` })),
  { suite: X, index: 73, expr: '[1, 1].transformMapEntry(i, v, {v: i})', causes: ['twoVarComprehensions'], k8s: accept('map(int, int)'), basis: `${COMP} TestTwoVarComprehensionsRuntimeErrors (compiles; fails only when evaluated)` },
  ...[74, 75].map((index): Deviation => ({ suite: X, index, expr: '[0, 0u].transformMapEntry', causes: ['twoVarComprehensions', 'homogeneousLiterals'], k8s: reject({ parsed: true, stage: 'validate', contains: "1:5: expected type 'int' but found 'uint'" }) })),
  { suite: X, index: 76, expr: "{'a': 'world', 'b': 'hello'}.transformMap(", causes: ['twoVarComprehensions'], k8s: accept('map(string, string)'), basis: `${COMP} TestTwoVarComprehensionsUnparse` },
  {
    suite: X,
    index: 77,
    expr: '[1.0, 2.0, 2.0].transformList(i, v, i / 2.0',
    causes: ['twoVarComprehensions'],
    k8s: reject({ parsed: true, stage: 'check', contains: "found no matching overload for '_/_' applied to '(int, double)'" }),
    basis: `${COMP} TestTwoVarComprehensionsUnparse only parses it; the index variable is an int and the standard library has no int / double overload (cel-go checker/decls, cel/library.go)`,
  },
  { suite: X, index: 80, expr: "[null, null, 'hello', string]", causes: ['twoVarComprehensions', 'homogeneousLiterals'], k8s: reject({ parsed: true, stage: 'validate', contains: "1:14: expected type 'null' but found 'string'" }) },
  ...[81, 83, 84, 85, 86, 87, 88, 89].map((index): Deviation => ({ suite: X, index, expr: '', causes: ['twoVarComprehensions'], k8s: accept('bool'), basis: `${COMP} TestTwoVarComprehensionsResidualAST (compiles with the variables it declares)` })),
  { suite: X, index: 82, expr: 'x.transformMapEntry(i, v, i < y, {v: i})', causes: ['twoVarComprehensions'], k8s: accept('map(dyn, int)'), basis: `${COMP} TestTwoVarComprehensionsResidualAST (x: list(dyn): keys are its dyn values, values its int indexes)` },
];
