/**
 * CEL types as cel-go's checker represents them (common/types/types.go at cel-go v0.26.0, the
 * version Kubernetes 1.34 to 1.36 build with), and the two ways cel-go prints them: FormatCELType
 * (checker/format.go, in checker errors) and Type.String() (in the admission compiler's
 * "must evaluate to …" message).
 *
 * Declarations are written as short signature strings (`'(list(A), int) -> A'`) and parsed here,
 * so the environment files read like the Go declarations they transcribe.
 */
import { splitTopLevel } from '../../text/split.js';

export type PrimitiveName = 'int' | 'uint' | 'double' | 'bool' | 'string' | 'bytes';

export type CelType =
  | { readonly kind: 'primitive'; readonly name: PrimitiveName }
  | { readonly kind: 'null' }
  | { readonly kind: 'dyn' }
  /** google.protobuf.Any: the admission compiler's "any result" marker (cel.AnyType). */
  | { readonly kind: 'any' }
  | { readonly kind: 'error' }
  | { readonly kind: 'duration' }
  | { readonly kind: 'timestamp' }
  | { readonly kind: 'list'; readonly elem: CelType }
  | { readonly kind: 'map'; readonly key: CelType; readonly value: CelType }
  /** type, or type(T) for the type of a value of T. */
  | { readonly kind: 'type'; readonly param?: CelType }
  /** Abstract types: optional_type(T), net.IP, net.CIDR, and the checker's function type. */
  | { readonly kind: 'opaque'; readonly name: string; readonly params: readonly CelType[] }
  /** Object (message) types: kubernetes.Quantity, kubernetes.AdmissionRequest, Object, JSONPatch… */
  | { readonly kind: 'struct'; readonly name: string }
  | { readonly kind: 'param'; readonly name: string }
  /** A field type that a type provider left unset (cel-go's UnspecifiedKind). */
  | { readonly kind: 'unspecified' };

const primitives = new Map<PrimitiveName, CelType>(
  (['int', 'uint', 'double', 'bool', 'string', 'bytes'] as const).map((name) => [name, { kind: 'primitive', name }]),
);

export const T = {
  int: primitives.get('int')!,
  uint: primitives.get('uint')!,
  double: primitives.get('double')!,
  bool: primitives.get('bool')!,
  string: primitives.get('string')!,
  bytes: primitives.get('bytes')!,
  null: { kind: 'null' } as CelType,
  dyn: { kind: 'dyn' } as CelType,
  any: { kind: 'any' } as CelType,
  error: { kind: 'error' } as CelType,
  duration: { kind: 'duration' } as CelType,
  timestamp: { kind: 'timestamp' } as CelType,
  typeType: { kind: 'type' } as CelType,
  unspecified: { kind: 'unspecified' } as CelType,
  list: (elem: CelType): CelType => ({ kind: 'list', elem }),
  map: (key: CelType, value: CelType): CelType => ({ kind: 'map', key, value }),
  optional: (param: CelType): CelType => ({ kind: 'opaque', name: 'optional_type', params: [param] }),
  opaque: (name: string, ...params: CelType[]): CelType => ({ kind: 'opaque', name, params }),
  struct: (name: string): CelType => ({ kind: 'struct', name }),
  param: (name: string): CelType => ({ kind: 'param', name }),
  typeOf: (param: CelType): CelType => ({ kind: 'type', param }),
};

/** The runtime type name (Type.TypeName()). */
export function typeName(t: CelType): string {
  switch (t.kind) {
    case 'primitive':
      return t.name;
    case 'null':
      return 'null_type';
    case 'dyn':
      return 'dyn';
    case 'any':
      return 'google.protobuf.Any';
    case 'error':
      return '*error*';
    case 'duration':
      return 'google.protobuf.Duration';
    case 'timestamp':
      return 'google.protobuf.Timestamp';
    case 'list':
      return 'list';
    case 'map':
      return 'map';
    case 'type':
      return 'type';
    case 'opaque':
    case 'struct':
    case 'param':
      return t.name;
    case 'unspecified':
      return '';
  }
}

export function typeParams(t: CelType): readonly CelType[] {
  switch (t.kind) {
    case 'list':
      return [t.elem];
    case 'map':
      return [t.key, t.value];
    case 'type':
      return t.param ? [t.param] : [];
    case 'opaque':
      return t.params;
    default:
      return [];
  }
}

/** cel-go's FormatCELType: how checker errors print a type. */
export function formatType(t: CelType): string {
  switch (t.kind) {
    case 'any':
      return 'any';
    case 'duration':
      return 'duration';
    case 'error':
      return '!error!';
    case 'null':
      return 'null';
    case 'timestamp':
      return 'timestamp';
    case 'param':
      return t.name;
    case 'unspecified':
      return '';
    case 'opaque':
      if (t.name === 'function') return formatFunction(t.params[0]!, t.params.slice(1), false);
      break;
    default:
      break;
  }
  const params = typeParams(t);
  if (params.length === 0) return typeName(t);
  return `${typeName(t)}(${params.map(formatType).join(', ')})`;
}

/** cel-go's Type.String(): how the admission compiler prints a result type. */
export function typeString(t: CelType): string {
  if (t.kind === 'param') return `<${t.name}>`;
  const params = typeParams(t);
  if (params.length === 0) return typeName(t);
  return `${typeName(t)}(${params.map(typeString).join(', ')})`;
}

/** checker/format.go formatFunctionDeclType: `(int, string)` or `string.(int)`. */
export function formatFunction(result: CelType | undefined, args: readonly CelType[], isInstance: boolean): string {
  let out = '';
  let rest = args;
  if (isInstance && args.length > 0) {
    out += `${formatType(args[0]!)}.`;
    rest = args.slice(1);
  }
  out += `(${rest.map(formatType).join(', ')})`;
  const resultText = result === undefined ? '' : formatType(result);
  if (resultText !== '') out += ` -> ${resultText}`;
  return out;
}

/** Type.IsExactType (checkTypeParamName = true) or IsEquivalentType (false). */
export function sameType(a: CelType, b: CelType, checkParamNames = true): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind) return false;
  const pa = typeParams(a);
  const pb = typeParams(b);
  if (pa.length !== pb.length) return false;
  if ((checkParamNames || a.kind !== 'param') && typeName(a) !== typeName(b)) return false;
  return pa.every((p, i) => sameType(p, pb[i]!, checkParamNames));
}

// --- the signature language of the declaration files -------------------------------------------

/**
 * Parses a type written as in the declarations: `int`, `list(A)`, `map(K, V)`,
 * `optional_type(V)`, `type(A)`, `net.IP` (opaque when listed in `opaqueNames`), a dotted name
 * (object type), or a single capital letter (a type parameter).
 */
export function parseType(text: string, opaqueNames: ReadonlySet<string> = OPAQUE_TYPE_NAMES): CelType {
  let i = 0;
  const s = text.trim();
  const skip = (): void => {
    while (s[i] === ' ') i++;
  };
  const name = (): string => {
    skip();
    const start = i;
    while (i < s.length && /[A-Za-z0-9_.]/.test(s[i]!)) i++;
    if (start === i) throw new Error(`bad type '${text}' at ${i}`);
    return s.slice(start, i);
  };
  const type = (): CelType => {
    const n = name();
    skip();
    const args: CelType[] = [];
    if (s[i] === '(') {
      i++;
      skip();
      while (s[i] !== ')') {
        args.push(type());
        skip();
        if (s[i] === ',') i++;
        skip();
      }
      i++;
    }
    return namedType(n, args, opaqueNames);
  };
  const result = type();
  skip();
  if (i !== s.length) throw new Error(`bad type '${text}': trailing '${s.slice(i)}'`);
  return result;
}

/** Abstract (opaque) types the Kubernetes libraries declare; other dotted names are object types. */
export const OPAQUE_TYPE_NAMES: ReadonlySet<string> = new Set(['net.IP', 'net.CIDR', 'optional_type']);

function namedType(n: string, args: CelType[], opaqueNames: ReadonlySet<string>): CelType {
  switch (n) {
    case 'int':
    case 'uint':
    case 'double':
    case 'bool':
    case 'string':
    case 'bytes':
      return primitives.get(n)!;
    case 'null_type':
      return T.null;
    case 'dyn':
      return T.dyn;
    case 'any':
      return T.any;
    case 'duration':
      return T.duration;
    case 'timestamp':
      return T.timestamp;
    case 'list':
      return T.list(args[0] ?? T.dyn);
    case 'map':
      return T.map(args[0] ?? T.dyn, args[1] ?? T.dyn);
    case 'type':
      return args[0] ? T.typeOf(args[0]) : T.typeType;
    default:
      if (/^[A-Z]$/.test(n)) return T.param(n);
      if (opaqueNames.has(n)) return T.opaque(n, ...args);
      return T.struct(n);
  }
}

export interface ParsedSignature {
  /** For member overloads: the receiver type (first argument in cel-go's declaration). */
  readonly receiver?: CelType;
  readonly params: readonly CelType[];
  readonly result: CelType;
}

/** `(int, string) -> bool` or, for a member overload, `string.(int) -> bool`. */
export function parseSignature(text: string): ParsedSignature {
  const arrow = text.lastIndexOf('->');
  if (arrow < 0) throw new Error(`bad signature '${text}'`);
  const result = parseType(text.slice(arrow + 2));
  const head = text.slice(0, arrow).trim();
  const open = head.lastIndexOf('.(') >= 0 && !head.startsWith('(') ? head.lastIndexOf('.(') : -1;
  const receiverText = open >= 0 ? head.slice(0, open) : undefined;
  const argsText = open >= 0 ? head.slice(open + 1) : head;
  if (!argsText.startsWith('(') || !argsText.endsWith(')')) throw new Error(`bad signature '${text}'`);
  const inner = argsText.slice(1, -1).trim();
  const params = inner === '' ? [] : splitTopLevel(inner).map((p) => parseType(p));
  return receiverText === undefined ? { params, result } : { receiver: parseType(receiverText), params, result };
}


/** The type parameters a type mentions. */
export function collectParams(t: CelType, out: Set<string> = new Set()): Set<string> {
  if (t.kind === 'param') out.add(t.name);
  for (const p of typeParams(t)) collectParams(p, out);
  return out;
}
