/**
 * The AST the checker works on: cel-go's expression kinds after macro expansion (common/ast), each
 * node with the offset cel-go reports it at (the operator token, the '(' of a call, the '.' of a
 * selection, …), so that messages carry the API server's line and column.
 */

interface Node {
  readonly id: number;
  /** UTF-16 offset into the source of the token cel-go locates this node at. */
  readonly offset: number;
}

export type LiteralType = 'int' | 'uint' | 'double' | 'string' | 'bytes' | 'bool' | 'null';

export interface LiteralExpr extends Node {
  readonly kind: 'literal';
  readonly type: LiteralType;
  readonly value: bigint | number | string | boolean | Uint8Array | null;
}

export interface IdentExpr extends Node {
  readonly kind: 'ident';
  readonly name: string;
}

export interface SelectExpr extends Node {
  readonly kind: 'select';
  readonly operand: Expr;
  readonly field: string;
  /** has(a.b): a presence test, of type bool. */
  readonly testOnly: boolean;
}

export interface CallExpr extends Node {
  readonly kind: 'call';
  readonly fn: string;
  readonly target?: Expr;
  readonly args: readonly Expr[];
}

export interface ListExpr extends Node {
  readonly kind: 'list';
  readonly elements: readonly Expr[];
  readonly optionalIndices: readonly number[];
}

export interface MapEntry extends Node {
  readonly key: Expr;
  readonly value: Expr;
  readonly optional: boolean;
}

export interface MapExpr extends Node {
  readonly kind: 'map';
  readonly entries: readonly MapEntry[];
}

export interface StructField extends Node {
  readonly name: string;
  readonly value: Expr;
  readonly optional: boolean;
}

export interface StructExpr extends Node {
  readonly kind: 'struct';
  readonly typeName: string;
  readonly fields: readonly StructField[];
}

export interface ComprehensionExpr extends Node {
  readonly kind: 'comprehension';
  readonly iterRange: Expr;
  readonly iterVar: string;
  readonly iterVar2?: string;
  readonly accuVar: string;
  readonly accuInit: Expr;
  readonly loopCondition: Expr;
  readonly loopStep: Expr;
  readonly result: Expr;
}

export type Expr = LiteralExpr | IdentExpr | SelectExpr | CallExpr | ListExpr | MapExpr | StructExpr | ComprehensionExpr;

/** Every node of an expression, the expression first (bounded by the parser's own limits on depth and size). */
export function* nodesOf(expr: Expr): Generator<Expr> {
  yield expr;
  for (const child of children(expr)) yield* nodesOf(child);
}

/** The children of a node, in source order where it matters. */
export function children(e: Expr): Expr[] {
  switch (e.kind) {
    case 'literal':
    case 'ident':
      return [];
    case 'select':
      return [e.operand];
    case 'call':
      return e.target ? [e.target, ...e.args] : [...e.args];
    case 'list':
      return [...e.elements];
    case 'map':
      return e.entries.flatMap((entry) => [entry.key, entry.value]);
    case 'struct':
      return e.fields.map((f) => f.value);
    case 'comprehension':
      return [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result];
  }
}
