/**
 * Cost budgets for evaluating CEL from manifests, after the API server's (k8s.io/apiserver
 * pkg/apis/cel/config.go): a limit per expression evaluation and a runtime budget shared by a
 * webhook's matchConditions for one request. Expressions come from pull requests, so the
 * budget is what bounds the linter's time and memory, not a courtesy.
 *
 * The cost is counted as cel-go's tracker counts it, roughly: one per evaluated node, plus the
 * size of each list, map or string a node produces (a tenth for strings, as cel-go's traversal
 * factor), so that doubling a list or a string pays for the copies it makes.
 */
import { memoKey, type RunScope } from '../run-scope.js';

/** PerCallLimit: the cost one expression evaluation may use. */
export const PER_CALL_LIMIT = 1_000_000;
/** RuntimeCELCostBudgetMatchConditions: the budget of one webhook's matchConditions per request. */
export const RUNTIME_COST_BUDGET_MATCH_CONDITIONS = 2_500_000;
/**
 * What one linter run spends on CEL evaluation in all: past it every evaluation is over budget.
 * Without it, many distinct expensive expressions would add up to minutes.
 */
export const RUN_COST_BUDGET = 20_000_000;

export const OVER_BUDGET = 'not evaluated: over the evaluation budget';

/** Thrown from inside the interpreter when the meter runs out. */
export class OverBudget extends Error {
  constructor() {
    super(OVER_BUDGET);
  }
}

/** A budget several evaluations draw from (a webhook's conditions for one request). */
export interface Budget {
  remaining: number;
}

export function budget(limit: number): Budget {
  return { remaining: limit };
}

/**
 * One run's meter: what the run has left of RUN_COST_BUDGET, and the cost of the evaluation in
 * progress (evaluation is synchronous: one at a time). Each run makes its own (celMeterOf).
 */
export class Meter {
  private limit = 0;
  private used = 0;
  exceeded = false;
  private runRemaining = RUN_COST_BUDGET;
  /**
   * Expressions that ran out of budget in this run: evaluating them again for another request
   * would spend the budget again for an answer that is likely the same (unknown is the safe side).
   */
  readonly overBudget = new Set<string>();

  start(limit: number): void {
    this.limit = Math.min(limit, this.runRemaining);
    this.used = 0;
    this.exceeded = false;
  }

  /** Ends the evaluation; returns the cost it used. */
  stop(): number {
    this.runRemaining = Math.max(0, this.runRemaining - this.used);
    return this.used;
  }

  charge(cost: number): void {
    this.used += cost;
    if (this.used > this.limit) {
      this.exceeded = true;
      throw new OverBudget();
    }
  }

  /** Charges for a value a node produced, by its size. */
  chargeValue(value: unknown): void {
    if (typeof value === 'string') this.charge(Math.ceil(value.length * 0.1));
    else if (Array.isArray(value)) this.charge(value.length);
    else if (value instanceof Map || value instanceof Set) this.charge(value.size);
    else if (value instanceof Uint8Array) this.charge(Math.ceil(value.length * 0.1));
  }
}

const METER = memoKey<Meter>('the run\'s CEL evaluation meter');

/** The run's meter, made on first use. */
export function celMeterOf(scope: Pick<RunScope, 'memo'>): Meter {
  return scope.memo.get(METER, () => new Meter());
}
