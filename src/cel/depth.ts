/**
 * Nesting bounds for CEL expressions, as cel-go's parser sets them (parser.MaxRecursionDepth,
 * 250 by default, which Kubernetes keeps): deeper input is a compile error, never a stack
 * overflow in the linter.
 *
 * cel-go reads a run of unary operators as one rule and keeps only its parity (`!!!!x` is `x`,
 * parser.go VisitLogicalNot / VisitNegate), so a run of 4,000 `!` is not deep there: it is
 * collapsed here the same way before cel-js, which nests one node per operator, parses it.
 */
import { IDENTIFIER_CHAR, stringLiteralEnd } from './source.js';

export const MAX_RECURSION_DEPTH = 250;

/** The API server's text for an expression past the parser's recursion limit (reported at no location). */
export const RECURSION_LIMIT_MESSAGE = `expression recursion limit exceeded: ${MAX_RECURSION_DEPTH}`;

/**
 * Our own bound on an AST's depth, for the code that walks or evaluates it recursively. cel-go
 * keeps `||` and `&&` chains balanced, so only they can be deeper than the parser's limits; past
 * this bound an expression is not analysed or evaluated.
 */
export const MAX_AST_DEPTH = 500;


/**
 * Blanks pairs of unary `!` and `-` so that each run keeps its parity (offsets stay). Strings
 * and comments are skipped; the first `-` after an operand is binary and stays.
 */
export function collapseUnaryRuns(text: string): string {
  const out = [...text];
  const n = out.length;
  let i = 0;
  // Whether the last token ended an operand (a `-` after it is binary).
  let afterOperand = false;
  const skipBlank = (from: number): number => {
    let j = from;
    for (;;) {
      while (j < n && /\s/.test(out[j]!)) j++;
      if (out[j] === '/' && out[j + 1] === '/') {
        while (j < n && out[j] !== '\n') j++;
        continue;
      }
      return j;
    }
  };
  while (i < n) {
    const c = out[i]!;
    if (c === '"' || c === "'") {
      i = stringLiteralEnd(out, i);
      afterOperand = true;
      continue;
    }
    if (c === '/' && out[i + 1] === '/') {
      while (i < n && out[i] !== '\n') i++;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if ((c === '!' && out[i + 1] !== '=') || (c === '-' && !afterOperand)) {
      // A run of the same unary operator, possibly spaced.
      const run: number[] = [];
      let j = i;
      while (j < n && out[j] === c && !(c === '!' && out[j + 1] === '=')) {
        run.push(j);
        j = skipBlank(j + 1);
      }
      for (let k = 0; k + 1 < run.length; k += 2) {
        out[run[k]!] = ' ';
        out[run[k + 1]!] = ' ';
      }
      i = j;
      afterOperand = false;
      continue;
    }
    afterOperand = IDENTIFIER_CHAR.test(c) || c === ')' || c === ']' || c === '}';
    i++;
  }
  return out.join('');
}

interface Node {
  op: string;
  args: unknown;
}

function children(node: Node): Node[] {
  const out: Node[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null && 'op' in value) out.push(value as Node);
  };
  visit(node.args);
  return out;
}

/** cel-go's `calc` and `relation` rules: each operator nests one more context of its rule. */
const CALC = new Set(['+', '-', '*', '/', '%']);
const RELATION = new Set(['==', '!=', '<', '<=', '>', '>=', 'in']);

export interface DepthReport {
  /** The deepest path, in nodes. */
  readonly depth: number;
  /** Whether cel-go's parser would stop at its recursion limit (a chain of 250 `+` or `==`). */
  readonly overRecursionLimit: boolean;
}

/** Measures an AST without recursion (it may be deeper than the stack allows). */
export function measureDepth(root: unknown): DepthReport {
  if (typeof root !== 'object' || root === null || !('op' in root)) return { depth: 0, overRecursionLimit: false };
  let depth = 0;
  let over = false;
  const stack: { node: Node; depth: number; calc: number; relation: number }[] = [{ node: root as Node, depth: 1, calc: 1, relation: 1 }];
  while (stack.length > 0) {
    const { node, depth: d, calc, relation } = stack.pop()!;
    if (d > depth) depth = d;
    const c = calc + (CALC.has(node.op) && Array.isArray(node.args) ? 1 : 0);
    const r = relation + (RELATION.has(node.op) ? 1 : 0);
    if (c > MAX_RECURSION_DEPTH || r > MAX_RECURSION_DEPTH) over = true;
    for (const child of children(node)) stack.push({ node: child, depth: d + 1, calc: c, relation: r });
  }
  return { depth, overRecursionLimit: over };
}
