/**
 * The API server's CEL environments as data: which libraries, language features and AST
 * validators each Kubernetes version enables (k8s.io/apiserver pkg/cel/environment/base.go,
 * read at kubernetes/apiserver v0.35.0 and master), and the environment one expression kind
 * compiles in.
 *
 * Versions. base.go lists each option with the version that introduced it (and, for a few, the
 * version that removed it). An API server validates a new or changed expression in the
 * NewExpressions environment of its compatibility version, DefaultCompatibilityVersion(), which is
 * the previous minor version (the binary's MinCompatibilityVersion, n-1; hard-coded to 1.27, 1.28
 * and 1.29 by the 1.28, 1.29 and 1.30 servers, which is n-1 too). So a 1.35 server accepts in a
 * new object what base.go introduced up to 1.34. An expression already stored in the object being
 * updated is compiled in the StoredExpressions environment instead: every option the binary has.
 * `expressions: 'stored'` selects that one.
 *
 * Before 1.28 there was no versioned base environment (webhook matchConditions were alpha in 1.27,
 * admission policies alpha before); those versions are given the options introduced at 1.0 and
 * 1.27, read from the same table.
 */
import { ADMISSION_STRUCTS, admissionVariables, hasPatchTypes, JSON_PATCH_FIELDS, resultTypes, type AdmissionVariables, type ExpressionKind, type StructFields } from './admission.js';
import { LISTS_VERSION_3, OPTIONAL_TYPES, SETS, STRINGS_VERSION_0, STRINGS_VERSION_2, TWO_VAR_COMPREHENSIONS } from './extensions.js';
import { AUTHZ, AUTHZ_SELECTORS, CIDR, FORMAT, IP, JSON_PATCH, KUBERNETES_LISTS_VERSION_0, KUBERNETES_LISTS_VERSION_1, QUANTITY_LIBRARY, REGEX, SEMVER_LIBRARY, URLS } from './kubernetes.js';
import { parseOverload, type FunctionDecl, type LibraryData, type MacroName, type OverloadDecl } from './library.js';
import { STANDARD_LIBRARY } from './stdlib.js';
import { parseType, T, type CelType } from './types.js';
import { BoundedCache, ObjectMemo } from '../../cache.js';

export type { ExpressionKind } from './admission.js';
export { composedVariableType, EXPRESSION_KINDS, resultTypes } from './admission.js';

export interface KubeVersion {
  readonly major: 1;
  readonly minor: number;
}

export type Feature = 'crossTypeNumericComparisons' | 'optionalSyntax';

export type ValidatorName =
  /** cel.ValidateDurationLiterals: `duration('…')` literals must parse. */
  | 'duration'
  /** cel.ValidateTimestampLiterals. */
  | 'timestamp'
  /** cel.ValidateRegexLiterals: `matches` patterns must be RE2. */
  | 'regex'
  /** cel.ValidateHomogeneousAggregateLiterals (also what cel.HomogeneousAggregateLiterals() is in cel-go v0.26). */
  | 'homogeneous'
  /** ext.Strings version ≥ 1: constant format strings against list literal arguments. */
  | 'format';

export interface VersionedOption {
  /** base.go's IntroducedVersion (minor of 1.x). */
  readonly introduced: number;
  /** base.go's RemovedVersion, when set. */
  readonly removed?: number;
  readonly libraries?: readonly LibraryData[];
  readonly features?: readonly Feature[];
  readonly validators?: readonly ValidatorName[];
  /** Where base.go says so. */
  readonly source: string;
  /** A feature gate that must be on as well, and the versions where it is on by default. */
  readonly featureGate?: { readonly name: string; readonly onByDefaultFrom: number };
}

const BASE_GO = 'k8s.io/apiserver pkg/cel/environment/base.go';

/** base.go's baseOpts, in order. */
export const VERSIONED_OPTIONS: readonly VersionedOption[] = [
  {
    introduced: 0,
    libraries: [STANDARD_LIBRARY, URLS, REGEX],
    validators: ['homogeneous'],
    source: `${BASE_GO}: cel.HomogeneousAggregateLiterals(), library.URLs, library.Regex (IntroducedVersion 1.0)`,
  },
  {
    introduced: 0,
    removed: 37,
    libraries: [KUBERNETES_LISTS_VERSION_0],
    source: `${BASE_GO}: library.Lists (unversioned at 1.0; library.Lists(ListsVersion(0)) removed at 1.37 in master)`,
  },
  { introduced: 27, libraries: [AUTHZ], source: `${BASE_GO}: library.Authz (1.27)` },
  {
    introduced: 28,
    features: ['crossTypeNumericComparisons', 'optionalSyntax'],
    libraries: [OPTIONAL_TYPES, QUANTITY_LIBRARY],
    source: `${BASE_GO}: cel.CrossTypeNumericComparisons(true), cel.OptionalTypes(), library.Quantity (1.28)`,
  },
  {
    introduced: 29,
    validators: ['duration', 'timestamp', 'regex', 'homogeneous'],
    source: `${BASE_GO}: cel.ASTValidators(ValidateDurationLiterals, ValidateTimestampLiterals, ValidateRegexLiterals, ValidateHomogeneousAggregateLiterals) (1.29)`,
  },
  { introduced: 0, removed: 29, libraries: [STRINGS_VERSION_0], source: `${BASE_GO}: ext.Strings(ext.StringsVersion(0)) (1.0, removed 1.29)` },
  { introduced: 29, libraries: [STRINGS_VERSION_2], validators: ['format'], source: `${BASE_GO}: ext.Strings(ext.StringsVersion(2)) (1.29)` },
  { introduced: 29, libraries: [SETS], source: `${BASE_GO}: ext.Sets() (1.29)` },
  { introduced: 30, libraries: [IP, CIDR], source: `${BASE_GO}: library.IP, library.CIDR (1.30)` },
  { introduced: 31, libraries: [FORMAT], source: `${BASE_GO}: library.Format (1.31)` },
  {
    introduced: 31,
    libraries: [AUTHZ_SELECTORS],
    featureGate: { name: 'AuthorizeWithSelectors', onByDefaultFrom: 32 },
    source: `${BASE_GO}: library.AuthzSelectors (1.31, behind the AuthorizeWithSelectors feature gate: alpha 1.31, beta 1.32, GA 1.34, gate removed 1.36)`,
  },
  { introduced: 32, libraries: [TWO_VAR_COMPREHENSIONS], source: `${BASE_GO}: ext.TwoVarComprehensions() (1.32)` },
  { introduced: 33, libraries: [SEMVER_LIBRARY], source: `${BASE_GO}: library.SemverLib(library.SemverVersion(1)) (1.33)` },
  { introduced: 34, libraries: [LISTS_VERSION_3], source: `${BASE_GO}: ext.Lists(ext.ListsVersion(3)) (1.34)` },
  { introduced: 37, libraries: [KUBERNETES_LISTS_VERSION_1], source: `${BASE_GO} (master): library.Lists(library.ListsVersion(1)) (1.37)` },
];

/** The patch types option of mutation expressions (compile.go hasPatchTypes). */
const PATCH_TYPES: VersionedOption = {
  introduced: 0,
  libraries: [JSON_PATCH],
  source: 'k8s.io/apiserver pkg/admission/plugin/cel/compile.go hasPatchTypes: mutation.DynamicTypeResolver, library.JSONPatch',
};

export type ExpressionsMode = 'new' | 'stored';

export interface EnvironmentOptions extends AdmissionVariables {
  /** 'new' (default): a created or changed expression; 'stored': one the object already had. */
  readonly expressions?: ExpressionsMode;
  /**
   * Further declarations, as cel.Variable and cel.Function add them to an environment (no
   * admission environment has any: the tests that measure the checker on cel-go's own test
   * cases declare what each case's environment declares).
   */
  readonly declarations?: Declarations;
}

export interface Declarations {
  /** Variables by (qualified) name. */
  readonly idents?: Readonly<Record<string, CelType>>;
  /** Functions; overloads of a function the environment has are added to it, as cel-go merges them. */
  readonly functions?: readonly FunctionDecl[];
}

export interface CelEnvironment {
  readonly kind: ExpressionKind;
  /** The version whose base options are in force (the server's compatibility version for new expressions). */
  readonly environmentVersion: KubeVersion;
  readonly functions: FunctionTable;
  /** Variables and type identifiers, by qualified name. */
  readonly idents: ReadonlyMap<string, CelType>;
  readonly structs: ReadonlyMap<string, StructFields>;
  readonly macros: ReadonlySet<MacroName>;
  readonly features: ReadonlySet<Feature>;
  readonly validators: ReadonlySet<ValidatorName>;
  readonly disabledOverloads: ReadonlySet<string>;
  readonly resultTypes: readonly CelType[];
  /** Object and Object.<path> are struct types (mutation expressions). */
  readonly dynamicObjectTypes: boolean;
  /** The options in force, for explaining a verdict. */
  readonly options: readonly VersionedOption[];
}

/** The compatibility version a server of `kube` validates new expressions with. */
export function compatibilityVersion(kube: KubeVersion): KubeVersion {
  return { major: 1, minor: Math.max(0, kube.minor - 1) };
}

function optionInForce(option: VersionedOption, minor: number, serverMinor: number): boolean {
  if (option.introduced > minor) return false;
  if (option.removed !== undefined && minor >= option.removed) return false;
  if (option.featureGate && serverMinor < option.featureGate.onByDefaultFrom) return false;
  return true;
}

/**
 * What an environment takes from its version alone (the options in force, their functions,
 * macros, features and validators), shared by the environments of every kind and declarations.
 */
interface BaseEnvironment {
  readonly base: true;
  readonly environmentVersion: KubeVersion;
  readonly inForce: readonly VersionedOption[];
  readonly functions: FunctionTable;
  readonly typeIdents: ReadonlyMap<string, CelType>;
  readonly macros: ReadonlySet<MacroName>;
  readonly features: ReadonlySet<Feature>;
  readonly validators: ReadonlySet<ValidatorName>;
  readonly disabledOverloads: ReadonlySet<string>;
}

/**
 * Environments by kind, version and declarations, and their bases by version: they depend on
 * nothing else.
 */
const environments = new BoundedCache<string, CelEnvironment | BaseEnvironment>();

/** The environment an expression of `kind` compiles in on a server of version `kube`. */
export function environmentFor(kind: ExpressionKind, kube: KubeVersion, options: EnvironmentOptions = {}): CelEnvironment {
  const mode = options.expressions ?? 'new';
  const variablesKey = options.variables ? JSON.stringify(Object.entries(options.variables)) : '-';
  const declarationsKey = options.declarations ? JSON.stringify(options.declarations) : '-';
  const key = `${kind}|${kube.minor}|${mode}|${options.params ? 1 : 0}|${variablesKey}|${declarationsKey}`;
  return environments.get(key, () => buildEnvironment(kind, kube, options, mode)) as CelEnvironment;
}

function baseFor(kube: KubeVersion, mode: 'new' | 'stored', patchTypes: boolean): BaseEnvironment {
  return environments.get(`base|${kube.minor}|${mode}|${patchTypes ? 1 : 0}`, () => buildBase(kube, mode, patchTypes)) as BaseEnvironment;
}

function buildBase(kube: KubeVersion, mode: 'new' | 'stored', patchTypes: boolean): BaseEnvironment {
  const environmentVersion = mode === 'new' ? compatibilityVersion(kube) : kube;
  const inForce = VERSIONED_OPTIONS.filter((o) => optionInForce(o, environmentVersion.minor, kube.minor));
  if (patchTypes) inForce.push(PATCH_TYPES);

  // Function declarations are parsed when an expression first calls them: a run pays for the few it uses.
  const functionSources = new Map<string, LibraryData[]>();
  const typeIdents = new Map<string, CelType>();
  const macros = new Set<MacroName>();
  const features = new Set<Feature>();
  const validators = new Set<ValidatorName>();
  const disabled = new Set<string>();
  for (const option of inForce) {
    option.features?.forEach((f) => features.add(f));
    option.validators?.forEach((v) => validators.add(v));
    for (const library of option.libraries ?? []) {
      library.macros?.forEach((m) => macros.add(m));
      for (const typeName of library.types ?? []) typeIdents.set(typeName, T.typeOf(identType(typeName)));
      if (library.disabledUnless) library.disabledUnless.overloads.forEach((id) => disabled.add(id));
      for (const name of Object.keys(library.functions)) {
        const sources = functionSources.get(name) ?? [];
        sources.push(library);
        functionSources.set(name, sources);
      }
    }
  }
  if (features.has('crossTypeNumericComparisons')) disabled.clear();
  return { base: true, environmentVersion, inForce, functions: new FunctionTable(functionSources), typeIdents, macros, features, validators, disabledOverloads: disabled };
}

function buildEnvironment(kind: ExpressionKind, kube: KubeVersion, options: EnvironmentOptions, mode: 'new' | 'stored'): CelEnvironment {
  const patchTypes = hasPatchTypes(kind);
  const base = baseFor(kube, mode, patchTypes);
  const idents = new Map<string, CelType>(base.typeIdents);

  const structs = new Map<string, StructFields>(Object.entries(ADMISSION_STRUCTS));
  for (const typeName of ['kubernetes.authorization.Authorizer', 'kubernetes.authorization.PathCheck', 'kubernetes.authorization.GroupCheck', 'kubernetes.authorization.ResourceCheck', 'kubernetes.authorization.Decision', 'kubernetes.Quantity', 'kubernetes.URL', 'kubernetes.Semver', 'kubernetes.NamedFormat']) {
    structs.set(typeName, 'none');
  }
  const variables = admissionVariables(kind, options);
  if (variables.has('variables')) structs.set('kubernetes.variables', { ...(options.variables ?? {}) });
  for (const [name, type] of variables) idents.set(name, type);
  for (const [name, type] of Object.entries(options.declarations?.idents ?? {})) idents.set(name, type);
  // The request and namespace object types are declared types (DeclTypes), usable as identifiers.
  for (const name of ['kubernetes.AdmissionRequest', 'kubernetes.Namespace']) idents.set(name, T.typeOf(T.struct(name)));
  if (patchTypes) {
    structs.set('JSONPatch', JSON_PATCH_FIELDS);
    idents.set('JSONPatch', T.typeOf(T.struct('JSONPatch')));
  }

  const environment: CelEnvironment = {
    kind,
    environmentVersion: base.environmentVersion,
    functions: options.declarations?.functions ? base.functions.withFunctions(options.declarations.functions) : base.functions,
    idents,
    structs,
    macros: base.macros,
    features: base.features,
    validators: base.validators,
    disabledOverloads: base.disabledOverloads,
    resultTypes: resultTypes(kind),
    dynamicObjectTypes: patchTypes,
    options: base.inForce,
  };
  return environment;
}

/** One function's overloads per library, parsed once whatever the number of environments including it. */
const parsedOverloads = new ObjectMemo<LibraryData, Map<string, OverloadDecl[]>>();

function overloadsOf(library: LibraryData, name: string): OverloadDecl[] {
  const byName = parsedOverloads.get(library, () => new Map());
  let overloads = byName.get(name);
  if (overloads === undefined) {
    overloads = (library.functions[name] ?? []).map(parseOverload);
    byName.set(name, overloads);
  }
  return overloads;
}

/** The functions of an environment, merged by name as cel-go merges declarations. */
export class FunctionTable {
  private readonly merged = new Map<string, FunctionDecl>();

  constructor(
    private readonly sources: ReadonlyMap<string, readonly LibraryData[]>,
    /** Functions declared as such rather than by a library (EnvironmentOptions.declarations). */
    private readonly declared: ReadonlyMap<string, readonly OverloadDecl[]> = new Map(),
  ) {}

  get(name: string): FunctionDecl | undefined {
    let decl = this.merged.get(name);
    if (decl === undefined) {
      const libraries = this.sources.get(name);
      const extra = this.declared.get(name);
      if (libraries === undefined && extra === undefined) return undefined;
      const overloads: OverloadDecl[] = [];
      // An identical overload id is declared once.
      for (const library of libraries ?? []) for (const o of overloadsOf(library, name)) if (!overloads.some((x) => x.id === o.id)) overloads.push(o);
      for (const o of extra ?? []) if (!overloads.some((x) => x.id === o.id)) overloads.push(o);
      decl = { name, overloads };
      this.merged.set(name, decl);
    }
    return decl;
  }

  has(name: string): boolean {
    return this.sources.has(name) || this.declared.has(name);
  }

  /** This table with further functions, their overloads merged into those of the same name. */
  withFunctions(functions: readonly FunctionDecl[]): FunctionTable {
    const declared = new Map(this.declared);
    for (const f of functions) declared.set(f.name, [...(declared.get(f.name) ?? []), ...f.overloads]);
    return new FunctionTable(this.sources, declared);
  }
}

/** The type a declared type name stands for (`google.protobuf.Timestamp` is timestamp). */
function identType(typeName: string): CelType {
  switch (typeName) {
    case 'google.protobuf.Duration':
      return T.duration;
    case 'google.protobuf.Timestamp':
      return T.timestamp;
    case 'list':
      return T.list(T.param('A'));
    case 'map':
      return T.map(T.param('A'), T.param('B'));
    case 'optional_type':
      return T.optional(T.param('T'));
    default:
      return parseType(typeName);
  }
}
