/**
 * cel-go's own parser, checker and comprehension tests (@bufbuild/cel-spec's testdata/parsing,
 * checking and comprehension: each expression with what cel-go produced for it) run through our
 * parser and checker as a ValidatingAdmissionPolicy variable on a 1.35 server.
 */
import { Type_PrimitiveType, type Type as ProtoType } from '@bufbuild/cel-spec/cel/expr/checked_pb.js';
import { getCheckingSuite, getComprehensionSuite, getParsingSuite, type IncrementalTest, type IncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { checkExpression, type CheckStage } from '../../src/cel/check/index.js';
import type { Declarations } from '../../src/cel/environment/index.js';
import type { FunctionDecl, OverloadDecl } from '../../src/cel/environment/library.js';
import { collectParams, formatType, T, type CelType } from '../../src/cel/environment/types.js';

export type SuiteName = 'parsing' | 'checking' | 'comprehension';

export interface SpecCase {
  readonly suite: SuiteName;
  /** Position in the suite (cases are listed in the order the package gives them). */
  readonly index: number;
  readonly expr: string;
  readonly test: IncrementalTest;
}

function flatten(suite: IncrementalTestSuite): IncrementalTest[] {
  return [...suite.tests, ...suite.suites.flatMap(flatten)];
}

export function specCases(): SpecCase[] {
  const suites: [SuiteName, IncrementalTestSuite][] = [
    ['parsing', getParsingSuite()],
    ['checking', getCheckingSuite()],
    ['comprehension', getComprehensionSuite()],
  ];
  return suites.flatMap(([suite, s]) => flatten(s).map((test, index) => ({ suite, index, expr: test.original.expr, test })));
}

/** A verdict with its type (accepted) or its error text (rejected, without "compilation failed: "). */
export interface Outcome {
  readonly verdict: 'accept' | 'reject';
  readonly type?: string;
  readonly text?: string;
  /** Whether the parser accepted it (a rejection by the checker, the validators or the result type otherwise). */
  readonly parsed: boolean;
  /** Our step that rejected it. */
  readonly stage?: CheckStage;
}

/**
 * What cel-go produced, as the package records it. Parser errors there have an empty source
 * description ("ERROR: :1:2: …"); the API server's has "<input>".
 */
export function celGoOutcome(c: SpecCase): Outcome {
  const parsed = c.test.ast !== undefined;
  if (c.test.error !== undefined) return { verdict: 'reject', text: c.test.error.replace(/^ERROR: :/gm, 'ERROR: <input>:'), parsed };
  return { verdict: 'accept', ...(c.test.type !== undefined ? { type: c.test.type } : {}), parsed };
}

// --- declarations ---------------------------------------------------------------------------

/**
 * cel-go checker/checker_test.go testEnvs(t)["default"]: the variables and functions every
 * checker case without an environment of its own is checked with.
 */
const CHECKER_DEFAULT_ENV: Declarations = {
  idents: { is: T.string, ii: T.int, iu: T.uint, iz: T.bool, ib: T.bytes, id: T.double, ix: T.null },
  functions: [
    { name: 'fg_s', overloads: [{ id: 'fg_s_0', member: false, args: [], result: T.string, typeParams: [] }] },
    { name: 'fi_s_s', overloads: [{ id: 'fi_s_s_0', member: true, args: [T.string], result: T.string, typeParams: [] }] },
  ],
};

const PRIMITIVES: ReadonlyMap<Type_PrimitiveType, CelType> = new Map([
  [Type_PrimitiveType.BOOL, T.bool],
  [Type_PrimitiveType.INT64, T.int],
  [Type_PrimitiveType.UINT64, T.uint],
  [Type_PrimitiveType.DOUBLE, T.double],
  [Type_PrimitiveType.STRING, T.string],
  [Type_PrimitiveType.BYTES, T.bytes],
]);

type Converted = CelType | { readonly unsupported: string };

/** A declared type (cel.expr.Type) as our checker has it, or why it has no such type. */
function celType(t: ProtoType | undefined): Converted {
  const kind = t?.typeKind ?? { case: undefined };
  const all = (types: readonly (ProtoType | undefined)[], make: (converted: CelType[]) => CelType): Converted => {
    const converted = types.map(celType);
    const bad = converted.find((x) => 'unsupported' in x);
    return bad ?? make(converted as CelType[]);
  };
  switch (kind?.case) {
    case undefined:
    case 'dyn':
      return T.dyn;
    case 'null':
      return T.null;
    case 'primitive':
      return PRIMITIVES.get(kind.value) ?? { unsupported: `primitive ${kind.value}` };
    case 'typeParam':
      return T.param(kind.value);
    case 'listType':
      return all([kind.value.elemType], ([elem]) => T.list(elem!));
    case 'mapType':
      return all([kind.value.keyType, kind.value.valueType], ([key, value]) => T.map(key!, value!));
    case 'abstractType': {
      const { name, parameterTypes } = kind.value;
      return all(parameterTypes, (params) => (name === 'optional_type' ? T.optional(params[0]!) : T.opaque(name, ...params)));
    }
    default:
      // messageType, wrapper, wellKnown (protobuf types, which no Kubernetes environment registers), function, type, error.
      return { unsupported: `${kind.case} ${typeof kind.value === 'object' ? JSON.stringify(kind.value) : String(kind.value)}` };
  }
}

export type CaseDeclarations = { readonly ok: true; readonly declarations: Declarations } | { readonly ok: false; readonly unsupported: string };

/**
 * The variables cel-go's ext/comprehensions_test.go declares for the comprehension cases that
 * read one (the package keeps the expressions, not these declarations), by case index.
 */
const COMPREHENSION_VARIABLES: Readonly<Record<number, Readonly<Record<string, CelType>>>> = {
  38: { m: T.map(T.int, T.int) },
  39: { m: T.map(T.string, T.string) },
  48: { m: T.map(T.string, T.list(T.int)) },
  50: { m: T.map(T.string, T.int) },
  81: { x: T.list(T.dyn), y: T.int },
  82: { x: T.list(T.dyn), y: T.int },
  83: { x: T.list(T.int), y: T.map(T.int, T.dyn) },
  84: { x: T.list(T.int), y: T.map(T.int, T.dyn) },
  85: { x: T.list(T.int), y: T.map(T.int, T.dyn) },
  86: { x: T.list(T.int), y: T.map(T.int, T.dyn) },
  87: { x: T.list(T.int), y: T.map(T.int, T.dyn) },
  88: { x: T.list(T.string), y: T.map(T.int, T.string) },
  89: { x: T.list(T.string), y: T.map(T.int, T.string) },
  90: { y: T.map(T.int, T.string) },
  91: { x: T.list(T.string), y: T.map(T.int, T.string) },
};

/**
 * The declarations a case is checked with: for a checker case, its typeEnv, or cel-go's default
 * checker test environment when it has none; for a comprehension case, the variables its cel-go
 * test declares.
 */
export function caseDeclarations(c: SpecCase): CaseDeclarations {
  if (c.suite === 'comprehension') {
    const idents = COMPREHENSION_VARIABLES[c.index];
    return { ok: true, declarations: idents ? { idents } : {} };
  }
  if (c.suite !== 'checking') return { ok: true, declarations: {} };
  // A case with an environment of its own is checked in that one alone (checker_test.go testInfo.env).
  const own = c.test.original.typeEnv.length > 0;
  const idents: Record<string, CelType> = own ? {} : { ...CHECKER_DEFAULT_ENV.idents };
  const functions: FunctionDecl[] = own ? [] : [...(CHECKER_DEFAULT_ENV.functions ?? [])];
  for (const decl of c.test.original.typeEnv) {
    const kind = decl.declKind;
    if (kind.case === 'ident') {
      const t = celType(kind.value.type);
      if ('unsupported' in t) return { ok: false, unsupported: `${decl.name}: ${t.unsupported}` };
      idents[decl.name] = t;
    }
    if (kind.case === 'function') {
      const overloads: OverloadDecl[] = [];
      for (const o of kind.value.overloads) {
        const types = [...o.params, o.resultType].map(celType);
        const bad = types.find((x) => 'unsupported' in x);
        if (bad && 'unsupported' in bad) return { ok: false, unsupported: `${decl.name}: ${bad.unsupported}` };
        const converted = types as CelType[];
        const params = new Set<string>();
        for (const t of converted) collectParams(t, params);
        overloads.push({ id: o.overloadId, member: o.isInstanceFunction, args: converted.slice(0, -1), result: converted.at(-1)!, typeParams: [...params] });
      }
      functions.push({ name: decl.name, overloads });
    }
  }
  return { ok: true, declarations: { idents, functions } };
}

/** Our outcome for a case, as a ValidatingAdmissionPolicy variable on a 1.35 server. */
export function ourOutcome(c: SpecCase, declarations: Declarations): Outcome {
  const result = checkExpression(c.expr, 'validating.variable', { major: 1, minor: 35 }, { declarations });
  if (result.ok) return { verdict: 'accept', type: formatType(result.type), parsed: true };
  return { verdict: 'reject', text: result.apiServerText.replace(/^compilation failed: /, ''), parsed: result.stage !== 'parse', stage: result.stage };
}
