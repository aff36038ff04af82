/**
 * Keys a domain owns: what a validation can say about the system's own objects when it only
 * asks for the keys of one project.
 *
 * Label and annotation keys (and userInfo.extra keys) carry an optional prefix, a DNS subdomain
 * before a `/`; the `kubernetes.io/` and `k8s.io/` prefixes (and their subdomains) are reserved
 * for Kubernetes' own components (Labels and Selectors, "Syntax and character set"). A key of a
 * project's domain is on a system object only because someone put it there (a template the
 * replicaset-controller copies, say): a validation that rejects only objects or requesters
 * carrying such keys rejects what its users marked, not the control plane's writes. Whether a
 * domain is such a project's is the caller's question: managed platforms and add-ons write keys
 * of their own domains on kube-system objects (rules/matches-kube-system.ts asks for a CRD group
 * of the run).
 *
 * The model: on the system's own requests, each keyed map (KEYED_MAPS) is absent, empty, or holds
 * keys of other domains than those the expression names (not known which, nor their values). An
 * expression is evaluated under the model only where the answer for one representative key is
 * the answer for every such key (src/match/system-requests.ts keyedRead):
 * - `has(map)`, a plain read `map[L]` or `map.f` (it errors: nothing is known of the value),
 * - `L in map` and `map[?L]` with L a key of a named domain (absent),
 * - `map.all(k, P)` / `map.exists(k, P)` where every use of `k` (and of the value variable) in
 *   P is a domain test (`k.startsWith(L)`, `k == L`, `k != L`, `k in [L, ...]`, L of a named
 *   domain: the same answer for every key outside it) or sits where such a test already decides
 *   P (`!k.startsWith(L) || …`, `k == L && …`).
 * Anything else read of a keyed map is not evaluated under the model.
 */
import { children, type Expr } from '../cel/check/ast.js';
import { ACCUMULATOR } from '../cel/check/parser.js';

/** The maps whose keys carry their owner's prefix. */
export const KEYED_MAPS: ReadonlySet<string> = new Set([
  'object.metadata.labels',
  'object.metadata.annotations',
  'oldObject.metadata.labels',
  'oldObject.metadata.annotations',
  'request.userInfo.extra',
]);

/** The representative key of a non-empty keyed map: a Kubernetes key no expression is taken to name. */
export const REPRESENTATIVE_KEY = 'kubernetes.io/admission-lint.representative-key';

const DNS_SUBDOMAIN = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$/;

/**
 * The domain a string names a key of, when that domain is not Kubernetes': `restore.criu.org`
 * for "restore.criu.org/checkpoint-path." and "restore.criu.org/x"; undefined for unprefixed
 * keys, Kubernetes' prefixes and anything else.
 */
export function foreignDomainOf(text: string): string | undefined {
  const slash = text.indexOf('/');
  if (slash <= 0) return undefined;
  const domain = text.slice(0, slash);
  if (domain.length > 253 || !DNS_SUBDOMAIN.test(domain)) return undefined;
  if (['kubernetes.io', 'k8s.io'].some((reserved) => domain === reserved || domain.endsWith(`.${reserved}`))) return undefined;
  return domain;
}

/** What the model needs of an expression: the keyed maps it reads and the domains it names. */
export interface KeyedReads {
  readonly maps: Set<string>;
  readonly domains: Set<string>;
}

/** The keyed map an expression reads whole (`object.metadata.labels`), if it is one (not shadowed by a bound name). */
export function keyedMapOf(e: Expr, bound: ReadonlySet<string>): string | undefined {
  const path: string[] = [];
  let at: Expr = e;
  while (at.kind === 'select' && !at.testOnly) {
    path.unshift(at.field);
    at = at.operand;
  }
  if (at.kind !== 'ident' || bound.has(at.name)) return undefined;
  const name = [at.name, ...path].join('.');
  return KEYED_MAPS.has(name) ? name : undefined;
}

function stringLiteral(e: Expr | undefined): string | undefined {
  return e?.kind === 'literal' && e.type === 'string' && typeof e.value === 'string' ? e.value : undefined;
}

/** A string literal that is a key (or key prefix) of another domain. */
function foreignLiteral(e: Expr | undefined, reads: KeyedReads): boolean {
  const text = stringLiteral(e);
  const domain = text === undefined ? undefined : foreignDomainOf(text);
  if (domain === undefined) return false;
  reads.domains.add(domain);
  return true;
}

function isVariable(e: Expr | undefined, vars: ReadonlySet<string>): boolean {
  return e?.kind === 'ident' && vars.has(e.name);
}

/** A domain test of an iteration variable: its answer (the same for every key outside the domain), or undefined. */
function domainTest(e: Expr, vars: ReadonlySet<string>, reads: KeyedReads): boolean | undefined {
  if (e.kind !== 'call') return undefined;
  const [a, b] = e.args;
  if (e.fn === 'startsWith' && isVariable(e.target, vars) && e.args.length === 1 && foreignLiteral(a, reads)) return false;
  if ((e.fn === '_==_' || e.fn === '_!=_') && e.args.length === 2) {
    const keyed = (isVariable(a, vars) && foreignLiteral(b, reads)) || (isVariable(b, vars) && foreignLiteral(a, reads));
    if (keyed) return e.fn === '_!=_';
  }
  if (e.fn === '@in' || e.fn === '_in_') {
    if (isVariable(a, vars) && b?.kind === 'list' && b.elements.length > 0 && b.optionalIndices.length === 0 && b.elements.every((element) => foreignLiteral(element, reads))) return false;
  }
  return undefined;
}

/** What is left of a predicate once its domain tests are answered: a constant, or the parts still evaluated. */
interface Residue {
  readonly value?: boolean;
  readonly live: readonly Expr[];
}

function residue(e: Expr, vars: ReadonlySet<string>, reads: KeyedReads): Residue {
  const tested = domainTest(e, vars, reads);
  if (tested !== undefined) return { value: tested, live: [] };
  if (e.kind === 'call' && e.fn === '!_' && e.args.length === 1) {
    const inner = residue(e.args[0]!, vars, reads);
    return inner.value === undefined ? { live: [e] } : { value: !inner.value, live: [] };
  }
  if (e.kind === 'call' && (e.fn === '_||_' || e.fn === '_&&_') && e.args.length === 2) {
    // CEL's || and && are commutative over errors: a true side decides ||, a false side decides &&.
    const decides = e.fn === '_||_';
    const left = residue(e.args[0]!, vars, reads);
    const right = residue(e.args[1]!, vars, reads);
    if (left.value === decides || right.value === decides) return { value: decides, live: [] };
    if (left.value !== undefined) return right;
    if (right.value !== undefined) return left;
    return { live: [...left.live, ...right.live] };
  }
  if (e.kind === 'call' && e.fn === '_?_:_' && e.args.length === 3) {
    const condition = residue(e.args[0]!, vars, reads);
    if (condition.value !== undefined) return residue(e.args[condition.value ? 1 : 2]!, vars, reads);
  }
  return { live: [e] };
}

/** Whether an expression reads one of the names (not where a nested comprehension binds it again). */
function mentions(e: Expr, vars: ReadonlySet<string>): boolean {
  if (e.kind === 'ident') return vars.has(e.name);
  if (e.kind === 'comprehension') {
    // A nested comprehension's own variables shadow ours in its body.
    const inner = new Set([...vars].filter((name) => name !== e.iterVar && name !== e.iterVar2 && name !== e.accuVar));
    return mentions(e.iterRange, vars) || mentions(e.accuInit, vars) || [e.loopCondition, e.loopStep, e.result].some((part) => mentions(part, inner));
  }
  return children(e).some((child) => mentions(child, vars));
}

/**
 * For a comprehension over a keyed map: the parts of its predicate still evaluated once the
 * domain tests are answered, or undefined when it is not all()/exists() or a part still reads
 * the key or its value.
 */
export function quantifierResidue(e: Extract<Expr, { kind: 'comprehension' }>, reads: KeyedReads): readonly Expr[] | undefined {
  if (e.accuVar !== ACCUMULATOR || e.accuInit.kind !== 'literal' || e.accuInit.type !== 'bool') return undefined;
  const step = e.loopStep;
  const expected = e.accuInit.value === true ? '_&&_' : '_||_';
  if (step.kind !== 'call' || step.fn !== expected || step.args.length !== 2) return undefined;
  const [accu, predicate] = step.args;
  if (accu?.kind !== 'ident' || accu.name !== ACCUMULATOR || predicate === undefined) return undefined;
  if (e.result.kind !== 'ident' || e.result.name !== ACCUMULATOR) return undefined;
  // Over a map, the first variable is the key (domain tests apply to it alone), the second its value.
  const vars = new Set([e.iterVar, ...(e.iterVar2 !== undefined ? [e.iterVar2] : [])]);
  const rest = residue(predicate, new Set([e.iterVar]), reads);
  if (rest.live.some((part) => mentions(part, vars) || mentions(part, new Set([ACCUMULATOR])))) return undefined;
  return rest.live;
}

/** One state of each keyed map an expression reads: absent, empty, or holding a key (the representative one). */
export type KeyedState = 'absent' | 'empty' | 'keyed';
const STATES: readonly KeyedState[] = ['absent', 'empty', 'keyed'];

/** Every combination of states of the maps (3^n: the caller keeps n small). */
export function keyedSamples(maps: readonly string[]): ReadonlyMap<string, KeyedState>[] {
  let samples: Map<string, KeyedState>[] = [new Map()];
  for (const map of maps) samples = samples.flatMap((sample) => STATES.map((state) => new Map([...sample, [map, state]])));
  return samples;
}

/**
 * The CEL variables with the keyed maps set as the sample says, where their object is there (a
 * null object stays null). The representative key's value is one no read can see (the model
 * only evaluates expressions that never read it).
 */
export function withKeyedSample(context: Record<string, unknown>, sample: ReadonlyMap<string, KeyedState>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...context };
  for (const [map, state] of sample) {
    if (state === 'absent') continue;
    const [root, ...path] = map.split('.');
    let holder = out[root!];
    if (holder === null || typeof holder !== 'object') continue;
    // Copy the objects on the way down: the context's own objects are shared between samples.
    let parent: Record<string, unknown> = out;
    let key = root!;
    for (const field of path.slice(0, -1)) {
      const copy: Record<string, unknown> = { ...(holder as Record<string, unknown>) };
      parent[key] = copy;
      parent = copy;
      key = field;
      holder = copy[field] ?? {};
    }
    const copy: Record<string, unknown> = { ...(holder as Record<string, unknown>) };
    parent[key] = copy;
    const value = map === 'request.userInfo.extra' ? ['admission-lint'] : 'admission-lint';
    copy[path[path.length - 1]!] = state === 'empty' ? {} : { [REPRESENTATIVE_KEY]: value };
  }
  return out;
}
