/**
 * cel-go's type checker (checker/checker.go, checker/types.go, checker/mapping.go at v0.26.0)
 * over the AST of parser.ts: identifier and qualified-name resolution, field selection on maps,
 * declared object types and dyn, overload resolution with type parameters and the substitution
 * mapping, aggregate literals, message construction and comprehensions. Types of every node are
 * kept (substituted at the end, unbound parameters becoming dyn) for the AST validators.
 */
import type { CelEnvironment } from '../environment/index.js';
import type { FunctionDecl, OverloadDecl } from '../environment/library.js';
import { formatFunction, formatType, T, typeName, typeParams, sameType, type CelType } from '../environment/types.js';
import type { CallExpr, ComprehensionExpr, Expr, ListExpr, MapExpr, SelectExpr, StructExpr } from './ast.js';

export interface CheckIssue {
  readonly message: string;
  readonly offset: number;
}

export interface Checked {
  readonly issues: readonly CheckIssue[];
  /** Every node's type, substituted (unbound type parameters are dyn). */
  readonly types: ReadonlyMap<number, CelType>;
  /** The overload ids each call resolved to. */
  readonly overloads: ReadonlyMap<number, readonly string[]>;
  /** Resolved function names of calls (qualified names rewritten as cel-go does). */
  readonly functionNames: ReadonlyMap<number, string>;
  readonly outputType: CelType;
}

// --- type relations (checker/types.go) ---------------------------------------------------------

class Mapping {
  constructor(readonly entries: Map<string, CelType> = new Map()) {}
  find(t: CelType): CelType | undefined {
    return this.entries.get(formatType(t));
  }
  add(from: CelType, to: CelType): void {
    this.entries.set(formatType(from), to);
  }
  copy(): Mapping {
    return new Mapping(new Map(this.entries));
  }
}

const isDyn = (t: CelType): boolean => t.kind === 'dyn' || t.kind === 'any';
const isError = (t: CelType): boolean => t.kind === 'error';
const isDynOrError = (t: CelType): boolean => isDyn(t) || isError(t);
const isOptional = (t: CelType): boolean => t.kind === 'opaque' && t.name === 'optional_type';

function maybeUnwrapOptional(t: CelType): [CelType, boolean] {
  return isOptional(t) ? [typeParams(t)[0]!, true] : [t, false];
}

/** Type.IsAssignableType: whether `to` accepts `from` (common/types defaultIsAssignableType). */
function typeAccepts(to: CelType, from: CelType): boolean {
  if (to === from || to.kind === 'dyn' || to.kind === 'any' || to.kind === 'param') return true;
  if (to.kind !== from.kind || typeName(to) !== typeName(from)) return false;
  const tp = typeParams(to);
  const fp = typeParams(from);
  if (tp.length !== fp.length) return false;
  return tp.every((p, i) => typeAccepts(p, fp[i]!));
}

function isEqualOrLessSpecific(t1: CelType, t2: CelType): boolean {
  if (isDyn(t1) || t1.kind === 'param') return true;
  if (isDyn(t2) || t2.kind === 'param') return false;
  if (t1.kind !== t2.kind) return false;
  switch (t1.kind) {
    case 'opaque': {
      const p1 = typeParams(t1);
      const p2 = typeParams(t2);
      return typeName(t1) === typeName(t2) && p1.length === p2.length && p1.every((p, i) => isEqualOrLessSpecific(p, p2[i]!));
    }
    case 'list':
      return isEqualOrLessSpecific(t1.elem, (t2 as { elem: CelType }).elem);
    case 'map': {
      const m2 = t2 as { key: CelType; value: CelType };
      return isEqualOrLessSpecific(t1.key, m2.key) && isEqualOrLessSpecific(t1.value, m2.value);
    }
    case 'type':
      return true;
    default:
      return sameType(t1, t2);
  }
}

function mostGeneral(t1: CelType, t2: CelType): CelType {
  return isEqualOrLessSpecific(t1, t2) ? t1 : t2;
}

function notReferencedIn(m: Mapping, t: CelType, within: CelType): boolean {
  if (sameType(t, within)) return false;
  if (within.kind === 'param') {
    const sub = m.find(within);
    return sub === undefined ? true : notReferencedIn(m, t, sub);
  }
  return typeParams(within).every((p) => notReferencedIn(m, t, p));
}

function isValidTypeSubstitution(m: Mapping, t1: CelType, t2: CelType): [valid: boolean, hasSub: boolean] {
  if (t1.kind === t2.kind && sameType(t1, t2)) return [true, true];
  const t2Sub = m.find(t2);
  if (t2Sub !== undefined) {
    if (t1.kind === t2Sub.kind && sameType(t1, t2Sub)) return [true, true];
    if (internalIsAssignable(m, t1, t2Sub)) {
      const t2New = mostGeneral(t1, t2Sub);
      if (notReferencedIn(m, t2, t2New)) m.add(t2, t2New);
      return [true, true];
    }
    return [false, true];
  }
  if (notReferencedIn(m, t2, t1)) {
    m.add(t2, t1);
    return [true, false];
  }
  return [false, false];
}

function isLegacyNullable(t: CelType): boolean {
  return t.kind === 'opaque' || t.kind === 'struct' || t.kind === 'any' || t.kind === 'duration' || t.kind === 'timestamp';
}

function internalIsAssignable(m: Mapping, t1: CelType, t2: CelType): boolean {
  if (t2.kind === 'param') {
    const [valid, t2HasSub] = isValidTypeSubstitution(m, t1, t2);
    if (valid) return true;
    if (t2HasSub) return false;
  }
  if (t1.kind === 'param') return isValidTypeSubstitution(m, t2, t1)[0];
  if (isDynOrError(t1) || isDynOrError(t2)) return true;
  if (t1.kind === 'null') return isLegacyNullable(t2) || typeAccepts(t2, T.null);
  if (t2.kind === 'null') return isLegacyNullable(t1) || typeAccepts(t1, T.null);
  switch (t1.kind) {
    case 'primitive':
    case 'duration':
    case 'timestamp':
    case 'struct':
      return typeAccepts(t2, t1);
    case 'type':
      return t2.kind === 'type';
    case 'opaque':
    case 'list':
    case 'map':
      return t1.kind === t2.kind && typeName(t1) === typeName(t2) && internalIsAssignableList(m, typeParams(t1), typeParams(t2));
    default:
      return false;
  }
}

function internalIsAssignableList(m: Mapping, l1: readonly CelType[], l2: readonly CelType[]): boolean {
  if (l1.length !== l2.length) return false;
  return l1.every((t, i) => internalIsAssignable(m, t, l2[i]!));
}

function substitute(m: Mapping, t: CelType, paramToDyn: boolean): CelType {
  const sub = m.find(t);
  if (sub !== undefined) return substitute(m, sub, paramToDyn);
  switch (t.kind) {
    case 'param':
      return paramToDyn ? T.dyn : t;
    case 'opaque':
      return { kind: 'opaque', name: t.name, params: t.params.map((p) => substitute(m, p, paramToDyn)) };
    case 'list':
      return T.list(substitute(m, t.elem, paramToDyn));
    case 'map':
      return T.map(substitute(m, t.key, paramToDyn), substitute(m, t.value, paramToDyn));
    case 'type':
      return t.param ? T.typeOf(substitute(m, t.param, paramToDyn)) : t;
    default:
      return t;
  }
}

function substituteParams(t: CelType, bindings: ReadonlyMap<string, CelType>): CelType {
  switch (t.kind) {
    case 'param':
      return bindings.get(t.name) ?? t;
    case 'opaque':
      return { kind: 'opaque', name: t.name, params: t.params.map((p) => substituteParams(p, bindings)) };
    case 'list':
      return T.list(substituteParams(t.elem, bindings));
    case 'map':
      return T.map(substituteParams(t.key, bindings), substituteParams(t.value, bindings));
    case 'type':
      return t.param ? T.typeOf(substituteParams(t.param, bindings)) : t;
    default:
      return t;
  }
}

/** containers.ToQualifiedName: `a.b.c` as a name, when the expression is only identifiers and selections. */
function toQualifiedName(e: Expr): string | undefined {
  if (e.kind === 'ident') return e.name;
  if (e.kind === 'select' && !e.testOnly) {
    const prefix = toQualifiedName(e.operand);
    return prefix === undefined ? undefined : `${prefix}.${e.field}`;
  }
  return undefined;
}

const stripDot = (name: string): string => (name.startsWith('.') ? name.slice(1) : name);

export function check(root: Expr, env: CelEnvironment): Checked {
  return new Checker(env).run(root);
}

class Checker {
  private mapping = new Mapping();
  private freeTypeVars = 0;
  private readonly types = new Map<number, CelType>();
  private readonly overloads = new Map<number, readonly string[]>();
  private readonly functionNames = new Map<number, string>();
  private readonly issues: CheckIssue[] = [];
  /** Comprehension scopes, innermost last. */
  private readonly scopes: Map<string, CelType>[] = [];

  constructor(private readonly env: CelEnvironment) {}

  run(root: Expr): Checked {
    this.check(root);
    const types = new Map<number, CelType>();
    for (const [id, t] of this.types) types.set(id, substitute(this.mapping, t, true));
    return { issues: this.issues, types, overloads: this.overloads, functionNames: this.functionNames, outputType: types.get(root.id) ?? T.error };
  }

  private error(offset: number, message: string): void {
    this.issues.push({ message, offset });
  }
  private setType(e: { id: number }, t: CelType): void {
    this.types.set(e.id, t);
  }
  private getType(e: { id: number }): CelType {
    return this.types.get(e.id) ?? T.error;
  }
  private newTypeVar(): CelType {
    return T.param(`_var${this.freeTypeVars++}`);
  }
  private isAssignable(t1: CelType, t2: CelType): boolean {
    const m = this.mapping.copy();
    if (!internalIsAssignable(m, t1, t2)) return false;
    this.mapping = m;
    return true;
  }
  private isAssignableList(l1: readonly CelType[], l2: readonly CelType[]): boolean {
    const m = this.mapping.copy();
    if (!internalIsAssignableList(m, l1, l2)) return false;
    this.mapping = m;
    return true;
  }
  private typeMismatch(offset: number, expected: CelType, actual: CelType): void {
    this.error(offset, `expected type '${formatType(expected)}' but found '${formatType(actual)}'`);
  }

  private lookupIdent(name: string): CelType | undefined {
    const n = stripDot(name);
    if (!name.startsWith('.')) {
      for (let i = this.scopes.length - 1; i >= 0; i--) {
        const t = this.scopes[i]!.get(n);
        if (t !== undefined) return t;
      }
    }
    const declared = this.env.idents.get(n);
    if (declared !== undefined) return declared;
    // The mutation type resolver resolves Object and every Object.<path> as an object type.
    if (this.env.dynamicObjectTypes && (n === 'Object' || n.startsWith('Object.'))) return T.typeOf(T.struct(n));
    return undefined;
  }

  private lookupFunction(name: string): FunctionDecl | undefined {
    return this.env.functions.get(stripDot(name));
  }

  private check(e: Expr): void {
    switch (e.kind) {
      case 'literal':
        this.setType(e, e.type === 'null' ? T.null : e.type === 'bytes' ? T.bytes : T[e.type]);
        return;
      case 'ident': {
        const t = this.lookupIdent(e.name);
        if (t !== undefined) {
          this.setType(e, t);
          return;
        }
        this.setType(e, T.error);
        this.error(e.offset, `undeclared reference to '${e.name}' (in container '')`);
        return;
      }
      case 'select':
        this.checkSelect(e);
        return;
      case 'call':
        this.checkCall(e);
        return;
      case 'list':
        this.checkList(e);
        return;
      case 'map':
        this.checkMap(e);
        return;
      case 'struct':
        this.checkStruct(e);
        return;
      case 'comprehension':
        this.checkComprehension(e);
        return;
    }
  }

  private checkSelect(e: SelectExpr): void {
    const qualified = toQualifiedName(e);
    if (qualified !== undefined) {
      const t = this.lookupIdent(qualified);
      if (t !== undefined) {
        this.setType(e, t);
        return;
      }
    }
    let result = this.checkSelectField(e.offset, e.operand, e.field, false);
    if (e.testOnly) result = T.bool;
    this.setType(e, substitute(this.mapping, result, false));
  }

  private checkSelectField(offset: number, operand: Expr, field: string, optional: boolean): CelType {
    this.check(operand);
    const operandType = substitute(this.mapping, this.getType(operand), false);
    const [target, isOpt] = maybeUnwrapOptional(operandType);
    let result: CelType = T.error;
    switch (target.kind) {
      case 'map':
        result = target.value;
        break;
      case 'struct': {
        const fieldType = this.lookupFieldType(offset, target.name, field);
        if (fieldType !== undefined) result = fieldType;
        break;
      }
      case 'param':
        this.isAssignable(T.dyn, target);
        result = T.dyn;
        break;
      default:
        if (!isDynOrError(target)) this.error(offset, `type '${formatType(target)}' does not support field selection`);
        result = T.dyn;
    }
    return isOpt || optional ? T.optional(result) : result;
  }

  private lookupFieldType(offset: number, structName: string, field: string): CelType | undefined {
    const fields = this.env.structs.get(structName);
    if (fields === undefined) {
      if (this.env.dynamicObjectTypes && (structName === 'Object' || structName.startsWith('Object.'))) return T.dyn;
      this.error(offset, `unexpected failed resolution of '${structName}'`);
      return undefined;
    }
    if (fields === 'dynamic') return T.dyn;
    if (fields !== 'none' && Object.prototype.hasOwnProperty.call(fields, field)) return fields[field];
    // JSONPatchType.Field reports every name as found, with no type for the unknown ones.
    if (structName === 'JSONPatch') return T.unspecified;
    this.error(offset, `undefined field '${field}'`);
    return undefined;
  }

  private checkCall(e: CallExpr): void {
    if (e.fn === '_?._') {
      this.checkOptSelect(e);
      return;
    }
    for (const arg of e.args) this.check(arg);
    if (e.target === undefined) {
      const fn = this.lookupFunction(e.fn);
      if (fn === undefined) {
        this.error(e.offset, `undeclared reference to '${e.fn}' (in container '')`);
        this.setType(e, T.error);
        return;
      }
      this.functionNames.set(e.id, fn.name);
      this.resolveOverloadOrError(e, fn, undefined);
      return;
    }
    const prefix = toQualifiedName(e.target);
    if (prefix !== undefined) {
      const fn = this.lookupFunction(`${prefix}.${e.fn}`);
      if (fn !== undefined) {
        this.functionNames.set(e.id, fn.name);
        this.resolveOverloadOrError(e, fn, undefined);
        return;
      }
    }
    this.check(e.target);
    const fn = this.lookupFunction(e.fn);
    if (fn !== undefined) {
      this.functionNames.set(e.id, fn.name);
      this.resolveOverloadOrError(e, fn, e.target);
      return;
    }
    this.setType(e, T.error);
    this.error(e.offset, `undeclared reference to '${e.fn}' (in container '')`);
  }

  private checkOptSelect(e: CallExpr): void {
    const [operand, field] = e.args;
    if (e.args.length !== 2 || e.target !== undefined || field === undefined || operand === undefined) {
      this.error(e.offset, `unsupported optional field selection: incorrect signature. argument count: ${e.args.length}`);
      return;
    }
    if (field.kind !== 'literal' || field.type !== 'string') {
      this.error(field.offset, 'unsupported optional field selection');
      return;
    }
    const result = this.checkSelectField(e.offset, operand, field.value as string, true);
    this.setType(e, substitute(this.mapping, result, false));
    this.functionNames.set(e.id, '_?._');
    this.overloads.set(e.id, ['select_optional_field']);
  }

  private resolveOverloadOrError(e: CallExpr, fn: FunctionDecl, target: Expr | undefined): void {
    const argTypes: CelType[] = [];
    if (target) argTypes.push(this.getType(target));
    for (const arg of e.args) argTypes.push(this.getType(arg));
    let resultType: CelType | undefined;
    const matched: string[] = [];
    for (const overload of fn.overloads) {
      if (this.env.disabledOverloads.has(overload.id)) continue;
      if ((target === undefined) === overload.member) continue;
      if (fn.name === '_&&_' || fn.name === '_||_') {
        let failed = false;
        argTypes.forEach((argType, i) => {
          if (!this.isAssignable(argType, T.bool)) {
            this.typeMismatch(e.args[i]!.offset, T.bool, argType);
            failed = true;
          }
        });
        if (failed) {
          this.setType(e, T.error);
          return;
        }
        this.overloads.set(e.id, [overload.id]);
        this.setType(e, T.bool);
        return;
      }
      const { args, result } = this.instantiate(overload);
      if (this.isAssignableList(argTypes, args)) {
        matched.push(overload.id);
        const fnResult = substitute(this.mapping, result, false);
        if (resultType === undefined) resultType = fnResult;
        else if (!isDyn(resultType) && !sameType(fnResult, resultType)) resultType = T.dyn;
      }
    }
    if (resultType === undefined) {
      const shown = argTypes.map((t) => substitute(this.mapping, t, true));
      this.error(e.offset, `found no matching overload for '${fn.name}' applied to '${formatFunction(undefined, shown, target !== undefined)}'`);
      this.setType(e, T.error);
      return;
    }
    this.overloads.set(e.id, matched);
    this.setType(e, resultType);
  }

  /** The overload's types with its type parameters replaced by fresh type variables. */
  private instantiate(overload: OverloadDecl): { args: readonly CelType[]; result: CelType } {
    if (overload.typeParams.length === 0) return { args: overload.args, result: overload.result };
    const bindings = new Map(overload.typeParams.map((p) => [p, this.newTypeVar()] as const));
    return { args: overload.args.map((a) => substituteParams(a, bindings)), result: substituteParams(overload.result, bindings) };
  }

  private joinTypes(previous: CelType | undefined, current: CelType): CelType {
    if (previous === undefined) return current;
    if (this.isAssignable(previous, current)) return mostGeneral(previous, current);
    // Homogeneity is the AST validator's to report (cel-go v0.26 checks aggregate literals as dyn).
    return T.dyn;
  }

  private checkList(e: ListExpr): void {
    let elemsType: CelType | undefined;
    e.elements.forEach((element, i) => {
      this.check(element);
      let elemType = this.getType(element);
      if (e.optionalIndices.includes(i)) {
        const [unwrapped, wasOptional] = maybeUnwrapOptional(elemType);
        if (!wasOptional && !isDyn(unwrapped)) this.typeMismatch(element.offset, T.optional(unwrapped), unwrapped);
        elemType = unwrapped;
      }
      elemsType = this.joinTypes(elemsType, elemType);
    });
    this.setType(e, T.list(elemsType ?? this.newTypeVar()));
  }

  private checkMap(e: MapExpr): void {
    let keyType: CelType | undefined;
    let valueType: CelType | undefined;
    for (const entry of e.entries) {
      this.check(entry.key);
      keyType = this.joinTypes(keyType, this.getType(entry.key));
      this.check(entry.value);
      let vt = this.getType(entry.value);
      if (entry.optional) {
        const [unwrapped, wasOptional] = maybeUnwrapOptional(vt);
        if (!wasOptional && !isDyn(unwrapped)) this.typeMismatch(entry.value.offset, T.optional(unwrapped), unwrapped);
        vt = unwrapped;
      }
      valueType = this.joinTypes(valueType, vt);
    }
    this.setType(e, T.map(keyType ?? this.newTypeVar(), valueType ?? this.newTypeVar()));
  }

  private checkStruct(e: StructExpr): void {
    const identType = this.lookupIdent(e.typeName);
    if (identType === undefined) {
      this.error(e.offset, `undeclared reference to '${e.typeName}' (in container '')`);
      // checker.go checkCreateStruct returns here: the field values are not checked.
      this.setType(e, T.error);
      return;
    }
    let resultType: CelType = T.error;
    let structName = stripDot(e.typeName);
    if (identType.kind !== 'type') {
      this.error(e.offset, `'${formatType(identType)}' is not a type`);
    } else {
      const declared = identType.param ?? T.dyn;
      if (declared.kind === 'struct') {
        resultType = declared;
        structName = declared.name;
      } else {
        this.error(e.offset, `'${formatType(declared)}' is not a message type`);
      }
    }
    this.setType(e, resultType);
    for (const f of e.fields) {
      this.check(f.value);
      const fieldType = resultType.kind === 'struct' ? (this.lookupFieldType(f.offset, structName, f.name) ?? T.error) : T.error;
      let valueType = this.getType(f.value);
      if (f.optional) {
        const [unwrapped, wasOptional] = maybeUnwrapOptional(valueType);
        if (!wasOptional && !isDyn(unwrapped)) this.typeMismatch(f.value.offset, T.optional(unwrapped), unwrapped);
        valueType = unwrapped;
      }
      if (!this.isAssignable(fieldType, valueType)) {
        this.error(f.offset, `expected type of field '${f.name}' is '${formatType(fieldType)}' but provided type is '${formatType(valueType)}'`);
      }
    }
  }

  private checkComprehension(e: ComprehensionExpr): void {
    this.check(e.iterRange);
    this.check(e.accuInit);
    const rangeType = substitute(this.mapping, this.getType(e.iterRange), false);
    const accuType = this.getType(e.accuInit);
    this.scopes.push(new Map([[e.accuVar, accuType]]));
    let varType: CelType;
    let var2Type: CelType | undefined;
    switch (rangeType.kind) {
      case 'list':
        varType = rangeType.elem;
        if (e.iterVar2 !== undefined) {
          var2Type = varType;
          varType = T.int;
        }
        break;
      case 'map':
        varType = rangeType.key;
        if (e.iterVar2 !== undefined) var2Type = rangeType.value;
        break;
      case 'dyn':
      case 'any':
      case 'error':
      case 'param':
        this.isAssignable(T.dyn, rangeType);
        varType = T.dyn;
        if (e.iterVar2 !== undefined) var2Type = T.dyn;
        break;
      default:
        this.error(e.iterRange.offset, `expression of type '${formatType(rangeType)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
        varType = T.error;
        if (e.iterVar2 !== undefined) var2Type = T.error;
    }
    const loopScope = new Map<string, CelType>([[e.iterVar, varType]]);
    if (e.iterVar2 !== undefined) loopScope.set(e.iterVar2, var2Type!);
    this.scopes.push(loopScope);
    this.check(e.loopCondition);
    this.assertType(e.loopCondition, T.bool);
    this.check(e.loopStep);
    this.assertType(e.loopStep, accuType);
    this.scopes.pop();
    this.check(e.result);
    this.scopes.pop();
    this.setType(e, substitute(this.mapping, this.getType(e.result), false));
  }

  private assertType(e: Expr, t: CelType): void {
    const actual = this.getType(e);
    if (!this.isAssignable(t, actual)) this.typeMismatch(e.offset, t, actual);
  }
}
