/**
 * cel-go's own parser, checker and comprehension tests (@bufbuild/cel-spec's testdata/parsing,
 * checking and comprehension: each expression with what cel-go produced for it) run through our
 * parser and checker as a ValidatingAdmissionPolicy variable on a 1.35 server.
 */
import { toJson, type JsonObject } from '@bufbuild/protobuf';
import { DeclSchema } from '@bufbuild/cel-spec/cel/expr/checked_pb.js';
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

const PRIMITIVES: Record<string, CelType> = { BOOL: T.bool, INT64: T.int, UINT64: T.uint, DOUBLE: T.double, STRING: T.string, BYTES: T.bytes };

/** A declared type as our checker has it, or a reason it has no such type. */
function celType(json: JsonObject): CelType | { readonly unsupported: string } {
  const [kind, value] = Object.entries(json)[0] ?? ['dyn', {}];
  const inner = (v: unknown): CelType | { readonly unsupported: string } => celType(v as JsonObject);
  switch (kind) {
    case 'dyn':
      return T.dyn;
    case 'null':
      return T.null;
    case 'primitive':
      return PRIMITIVES[value as string] ?? { unsupported: `primitive ${String(value)}` };
    case 'typeParam':
      return T.param(value as string);
    case 'listType': {
      const elem = inner((value as JsonObject)['elemType']);
      return 'unsupported' in elem ? elem : T.list(elem);
    }
    case 'mapType': {
      const key = inner((value as JsonObject)['keyType']);
      const val = inner((value as JsonObject)['valueType']);
      if ('unsupported' in key) return key;
      if ('unsupported' in val) return val;
      return T.map(key, val);
    }
    case 'abstractType': {
      const { name, parameterTypes } = value as { name: string; parameterTypes?: JsonObject[] };
      const params = (parameterTypes ?? []).map(inner);
      const bad = params.find((p) => 'unsupported' in p);
      if (bad) return bad;
      return name === 'optional_type' ? T.optional(params[0] as CelType) : T.opaque(name, ...(params as CelType[]));
    }
    default:
      // messageType, wrapper, wellKnown: protobuf types, which no Kubernetes environment registers.
      return { unsupported: `${kind} ${JSON.stringify(value)}` };
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
    const json = toJson(DeclSchema, decl) as { name: string; ident?: { type: JsonObject }; function?: { overloads: JsonObject[] } };
    if (json.ident) {
      const t = celType(json.ident.type);
      if ('unsupported' in t) return { ok: false, unsupported: `${json.name}: ${t.unsupported}` };
      idents[json.name] = t;
    }
    if (json.function) {
      const overloads: OverloadDecl[] = [];
      for (const o of json.function.overloads as { overloadId: string; params?: JsonObject[]; resultType: JsonObject; isInstanceFunction?: boolean }[]) {
        const args = (o.params ?? []).map(celType);
        const result = celType(o.resultType);
        const bad = [...args, result].find((a) => 'unsupported' in a);
        if (bad && 'unsupported' in bad) return { ok: false, unsupported: `${json.name}: ${bad.unsupported}` };
        const params = new Set<string>();
        for (const a of [...(args as CelType[]), result as CelType]) collectParams(a, params);
        overloads.push({ id: o.overloadId, member: o.isInstanceFunction === true, args: args as CelType[], result: result as CelType, typeParams: [...params] });
      }
      functions.push({ name: json.name, overloads });
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
