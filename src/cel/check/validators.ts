/**
 * The AST validators the API server runs after a successful type check (cel-go v0.26.0
 * cel/validator.go, and ext/formatting.go stringFormatValidator for `format`): literal arguments
 * of duration(), timestamp() and matches() must be valid, list and map literals must be
 * homogeneous, and a constant format string must fit its list literal of arguments.
 */
import type { CelEnvironment } from '../environment/index.js';
import { formatType, sameType, T, typeName, typeParams, type CelType } from '../environment/types.js';
import { re2Error } from '../re2.js';
import { children, type CallExpr, type Expr } from './ast.js';
import type { Checked, CheckIssue } from './checker.js';

export function validate(root: Expr, env: CelEnvironment, checked: Checked): CheckIssue[] {
  const issues: CheckIssue[] = [];
  const exempt = new Set<string>(env.validators.has('format') ? ['format'] : []);
  const typeOf = (e: Expr): CelType => checked.types.get(e.id) ?? T.dyn;
  const fnName = (e: CallExpr): string => checked.functionNames.get(e.id) ?? e.fn;

  const visit = (e: Expr, inExempt: boolean): void => {
    if (e.kind === 'call') {
      const name = fnName(e);
      const firstArg = e.args[0];
      if (firstArg?.kind === 'literal') {
        if (name === 'duration' && env.validators.has('duration') && firstArg.type === 'string' && !isGoDuration(firstArg.value as string)) {
          issues.push({ offset: firstArg.offset, message: 'invalid duration argument' });
        }
        if (name === 'timestamp' && env.validators.has('timestamp') && firstArg.type === 'string' && !isRfc3339(firstArg.value as string)) {
          issues.push({ offset: firstArg.offset, message: 'invalid timestamp argument' });
        }
        // ValidateRegexLiterals checks argument 0 of every `matches` call: the pattern of
        // `s.matches(p)`, but the subject of the global `matches(s, p)`, as cel-go does.
        if (name === 'matches' && env.validators.has('regex') && firstArg.type === 'string' && re2Error(firstArg.value as string) !== undefined) {
          issues.push({ offset: firstArg.offset, message: 'invalid matches argument' });
        }
      }
      if (name === 'format' && e.target !== undefined && env.validators.has('format')) checkFormat(e, checked, typeOf, issues);
    }
    if (env.validators.has('homogeneous') && !inExempt) checkHomogeneous(e, typeOf, issues);
    const childExempt = inExempt || (e.kind === 'call' && exempt.has(fnName(e)));
    for (const child of children(e)) visit(child, childExempt);
  };
  visit(root, false);
  return issues;
}

function checkHomogeneous(e: Expr, typeOf: (e: Expr) => CelType, issues: CheckIssue[]): void {
  const mismatch = (at: Expr, expected: CelType, actual: CelType): void => {
    issues.push({ offset: at.offset, message: `expected type '${formatType(expected)}' but found '${formatType(actual)}'` });
  };
  if (e.kind === 'list') {
    let elemType: CelType | undefined;
    for (let i = 0; i < e.elements.length; i++) {
      const element = e.elements[i]!;
      let t = typeOf(element);
      if (e.optionalIndices.includes(i)) t = typeParams(t)[0] ?? t;
      if (elemType === undefined) {
        elemType = t;
        continue;
      }
      if (!sameType(elemType, t, false)) {
        mismatch(element, elemType, t);
        break;
      }
    }
  }
  if (e.kind === 'map') {
    let keyType: CelType | undefined;
    let valueType: CelType | undefined;
    for (const entry of e.entries) {
      const kt = typeOf(entry.key);
      let vt = typeOf(entry.value);
      if (entry.optional) vt = typeParams(vt)[0] ?? vt;
      if (keyType === undefined || valueType === undefined) {
        keyType = kt;
        valueType = vt;
        continue;
      }
      if (!sameType(keyType, kt, false)) mismatch(entry.key, keyType, kt);
      if (!sameType(valueType, vt, false)) mismatch(entry.value, valueType, vt);
    }
  }
}

/** Go's time.ParseDuration grammar: `[-+]?([0-9]*(\.[0-9]*)?(ns|us|µs|μs|ms|s|m|h))+`, or `0`. */
function isGoDuration(s: string): boolean {
  if (/^[-+]?0$/.test(s)) return true;
  const body = s.replace(/^[-+]/, '');
  if (!/^(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:ns|us|µs|μs|ms|s|m|h))+$/.test(body)) return false;
  // Overflow: more than about 292 years of nanoseconds is an error in Go.
  let nanos = 0;
  const units: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 6e10, h: 3.6e12 };
  for (const m of body.matchAll(/([0-9]*\.?[0-9]*)(ns|us|µs|μs|ms|s|m|h)/g)) nanos += Number(m[1]) * units[m[2]!]!;
  return nanos <= 9223372036854775807;
}

/** cel-go's timestamp(string): time.Parse(time.RFC3339, s), years 0001 to 9999. */
function isRfc3339(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (year < 1 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return false;
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 1 : 0);
  if (day < 1 || day > daysInMonth) return false;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  return true;
}

/** ext/formatting.go: stringFormatValidator with stringFormatChecker, over parseFormatString. */
function checkFormat(call: CallExpr, checked: Checked, typeOf: (e: Expr) => CelType, issues: CheckIssue[]): void {
  if (!(checked.overloads.get(call.id) ?? []).includes('string_format')) return;
  const target = call.target!;
  if (target.kind !== 'literal' || target.type !== 'string' || call.args.length !== 1 || call.args[0]!.kind !== 'list') return;
  const format = target.value as string;
  const args = call.args[0]!.elements;
  const kindIs = (e: Expr, kinds: readonly CelType['kind'][], primitives: readonly string[] = []): boolean => {
    const t = typeOf(e);
    if (t.kind === 'dyn') return true;
    return kinds.includes(t.kind) || (t.kind === 'primitive' && primitives.includes(t.name)) || (t.kind === 'null' && kinds.includes('null'));
  };
  const stringOk = (e: Expr): Expr | undefined => {
    if (!kindIs(e, ['list', 'map', 'timestamp', 'duration', 'type', 'null'], ['int', 'uint', 'double', 'bool', 'string', 'bytes'])) return e;
    if (e.kind === 'list') for (const x of e.elements) {
      const bad = stringOk(x);
      if (bad) return bad;
    }
    if (e.kind === 'map') for (const entry of e.entries) {
      const bad = stringOk(entry.key) ?? stringOk(entry.value);
      if (bad) return bad;
    }
    return undefined;
  };
  // The type errors are formatErrors carrying the argument's id: cel-go unwraps them and reports at that argument.
  const clauseError = (at: Expr, message: string): void => {
    issues.push({ offset: at.offset, message: `error during formatting: ${message}` });
  };
  let argsRequested = 0;
  let argIndex = 0;
  let i = 0;
  while (i < format.length) {
    if (format[i] !== '%') {
      i++;
      continue;
    }
    if (format[i + 1] === '%') {
      i += 2;
      continue;
    }
    argsRequested++;
    const arg = args[argIndex];
    if (i + 1 >= format.length) {
      issues.push({ offset: call.offset, message: 'unexpected end of string' });
      return;
    }
    if (argIndex >= args.length || arg === undefined) {
      issues.push({ offset: call.offset, message: `index ${argIndex} out of range` });
      return;
    }
    let j = i + 1;
    if (format[j] === '.') {
      j++;
      while (j < format.length && /[0-9]/.test(format[j]!)) j++;
      if (j >= format.length) {
        issues.push({ offset: call.offset, message: 'could not parse formatting clause: error while parsing precision: could not find end of precision specifier' });
        return;
      }
    }
    const clause = format[j]!;
    const given = typeName(typeOf(arg));
    switch (clause) {
      case 's': {
        const bad = stringOk(arg);
        if (bad) return clauseError(bad, `string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ${typeName(typeOf(bad))}`);
        break;
      }
      case 'd':
        if (!kindIs(arg, [], ['int', 'uint'])) return clauseError(arg, `decimal clause can only be used on integers, was given ${given}`);
        break;
      case 'f':
        if (!kindIs(arg, [], ['double', 'string'])) return clauseError(arg, `fixed-point clause can only be used on doubles, was given ${given}`);
        break;
      case 'e':
        if (!kindIs(arg, [], ['double', 'string'])) return clauseError(arg, `scientific clause can only be used on doubles, was given ${given}`);
        break;
      case 'b':
        if (!kindIs(arg, [], ['int', 'uint', 'bool'])) return clauseError(arg, `only integers and bools can be formatted as binary, was given ${given}`);
        break;
      case 'x':
      case 'X':
        if (!kindIs(arg, [], ['int', 'uint', 'string', 'bytes'])) return clauseError(arg, `only integers, byte buffers, and strings can be formatted as hex, was given ${given}`);
        break;
      case 'o':
        if (!kindIs(arg, [], ['int', 'uint'])) return clauseError(arg, `octal clause can only be used on integers, was given ${given}`);
        break;
      default:
        issues.push({ offset: call.offset, message: `could not parse formatting clause: unrecognized formatting clause "${clause}"` });
        return;
    }
    i = j + 1;
    argIndex++;
  }
  if (args.length > argsRequested) {
    issues.push({ offset: call.offset, message: `too many arguments supplied to string.format (expected ${argsRequested}, got ${args.length})` });
  }
}
