/**
 * src/match/system-requests.ts withUnknownPresenceTests: a presence test of a field that is not
 * known of the system's requests becomes an identifier that errors, so CEL's || and && decide
 * around it, and nothing answers from the made-up object's absent field.
 */
import { describe, expect, it } from 'vitest';
import { withUnknownPresenceTests } from '../src/match/system-requests.js';

const U = '__admission_lint_unknown';

describe('presence tests of what is not known', () => {
  it('replaces has() of an object field, a metadata map, an indexed path and a variable; keeps known fields and comprehension variables', () => {
    expect(withUnknownPresenceTests('false && has(object.metadata.labels)')).toBe(`false && ${U}`);
    expect(withUnknownPresenceTests('has( object . spec . x ) || true')).toBe(`${U} || true`);
    expect(withUnknownPresenceTests('has(object.rules[0].resourceNames)')).toBe(U);
    expect(withUnknownPresenceTests('has(variables.team)')).toBe(U);
    expect(withUnknownPresenceTests("has(request.namespace) && request.namespace == 'kube-system'")).toBe("has(request.namespace) && request.namespace == 'kube-system'");
    expect(withUnknownPresenceTests('object.spec.containers.all(c, has(c.securityContext))')).toBe('object.spec.containers.all(c, has(c.securityContext))');
  });

  it('leaves comments as they are: a quote in one opens no string', () => {
    expect(withUnknownPresenceTests("// the operator's own leases\nsize(\"'has(object.a.b)\") == 16 || has(object.c.d)")).toBe(`// the operator's own leases\nsize("'has(object.a.b)") == 16 || ${U}`);
  });

  it('leaves string literals as they are, quoted in every way CEL allows', () => {
    for (const literal of ["'has(object.x)'", '"has(object.x)"', "'''has(object.x)'''", '"""has(object.x)"""', "r'\\'", "'it\\'s has(object.x)'", "''"]) {
      expect(withUnknownPresenceTests(`${literal} == x || has(object.y)`)).toBe(`${literal} == x || ${U}`);
    }
  });
});
