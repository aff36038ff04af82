/**
 * The CEL library (@marcbachmann/cel-js), loaded on demand: `prepareCel` where it can be
 * awaited, `loadCelSync` where it cannot, so runs without expressions never pay for it. One
 * handle per process (src/cache.ts `Lazy`): the library and its environments hold no run's data.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { createRequire } from 'node:module';
import { Lazy } from '../cache.js';
import { boundedCel, type BoundedCel } from './bounded.js';

export type CelModule = typeof import('@marcbachmann/cel-js');

interface CelLibrary {
  readonly module: CelModule;
  /** The environment the compile checks parse with (Kubernetes' optional syntax on). */
  readonly environment: Environment;
  /** The metered evaluator (src/cel/bounded.ts). */
  readonly bounded: BoundedCel;
}

const library = new Lazy<CelLibrary>();

function libraryOf(module: CelModule): CelLibrary {
  return { module, environment: new module.Environment({ enableOptionalTypes: true }), bounded: boundedCel(module) };
}

export async function prepareCel(): Promise<void> {
  if (library.loaded) return;
  library.set(libraryOf(await import('@marcbachmann/cel-js')));
}

/**
 * Loads the CEL library synchronously (Node's require of an ES module, Node 20.19+), for code
 * that runs where `prepareCel()` could not be awaited. False when it cannot be loaded.
 */
export function loadCelSync(): boolean {
  if (library.loaded) return true;
  try {
    const require = createRequire(import.meta.url);
    library.set(libraryOf(require('@marcbachmann/cel-js') as CelModule));
    return true;
  } catch {
    return false;
  }
}

/** The loaded library; a bug when nothing loaded it first. */
export function celLibrary(): CelLibrary {
  const loaded = library.peek();
  if (loaded === undefined) throw new Error('prepareCel() must be awaited before the CEL library is used');
  return loaded;
}

/** The loaded CEL library, for code that walks or evaluates ASTs itself. */
export function celModule(): CelModule {
  return celLibrary().module;
}
