/**
 * A namespace's Pod Security labels and the policy its pods are checked against. Each case names
 * the upstream test or code it follows in k8s.io/pod-security-admission: api/helpers_test.go
 * (TestParseVersion, TestPolicyToEvaluate), api/helpers.go, admission/admission_test.go
 * (TestValidatePodAndController), admission/admission.go, policy/registry.go.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_POD_SECURITY_CONFIGURATION, type PodSecurityConfiguration } from '../src/psa/config.js';
import {
  comparePsaLevels,
  formatLevelVersion,
  parsePsaLevel,
  parsePsaVersion,
  policyFromLabels,
  PSA_LEVELS,
  type PsaLevel,
  type PsaLevelVersion,
  type PsaPolicy,
  type PsaVersion,
} from '../src/psa/labels.js';
import { effectivePolicy, isExemptNamespace, isExemptRuntimeClass, isExemptUsername, resolvePsaVersion } from '../src/psa/namespace-policy.js';

const privilegedLV: PsaLevelVersion = { level: 'privileged', version: 'latest' };
const privilegedPolicy: PsaPolicy = { enforce: privilegedLV, audit: privilegedLV, warn: privilegedLV };
const lv = (level: PsaLevel, version: PsaVersion = 'latest'): PsaLevelVersion => ({ level, version });
const v = (minor: number): PsaVersion => ({ minor });

/** helpers_test.go makeLabels: the PSA keys, plus an unrelated label that must be ignored. */
function makeLabels(...pairs: string[]): Record<string, string> {
  const labels: Record<string, string> = { 'other-label': 'foo-bar' };
  for (let i = 0; i < pairs.length; i += 2) labels[`pod-security.kubernetes.io/${pairs[i]}`] = pairs[i + 1]!;
  return labels;
}

function levelsAndVersions(labels: Readonly<Record<string, unknown>> | undefined, defaults: PsaPolicy = privilegedPolicy): PsaPolicy {
  const { policy } = policyFromLabels(labels, defaults);
  const strip = (mode: PsaLevelVersion): PsaLevelVersion => ({ level: mode.level, version: mode.version });
  return { enforce: strip(policy.enforce), audit: strip(policy.audit), warn: strip(policy.warn) };
}

describe('parsePsaVersion (helpers_test.go TestParseVersion)', () => {
  it.each([
    ['latest', 'latest'],
    ['v1.0', v(0)],
    ['v1.1', v(1)],
    ['v1.20', v(20)],
    ['v1.10000', v(10000)],
    ['v1.9223372036854775807', v(9223372036854775807)],
  ] as const)('%s parses', (text, version) => {
    expect(parsePsaVersion(text)).toEqual({ version, valid: true });
  });
  it.each([
    ['foo', 'TestParseVersion failures'],
    ['', 'TestParseVersion failures'],
    ['v2.0', 'TestParseVersion failures'],
    ['v1', 'TestParseVersion failures'],
    ['1.1', 'TestParseVersion failures'],
    ['v1.01', 'versionRegexp: no leading zero'],
    ['V1.30', 'versionRegexp is case-sensitive'],
    ['v1.30.0', 'versionRegexp: no patch'],
    ['v1.30\n', 'Go regexp $ is the end of the text'],
    ['v1.9223372036854775808', 'strconv.Atoi out of range'],
  ])('%j is invalid and reads as latest (%s)', (text) => {
    expect(parsePsaVersion(text)).toEqual({ version: 'latest', valid: false });
  });
});

describe('levels (helpers.go ParseLevel, CompareLevels)', () => {
  it.each([
    ['privileged', 'privileged', true],
    ['restricted', 'restricted', true],
    ['Baseline', 'restricted', false],
    ['', 'restricted', false],
  ] as const)('ParseLevel(%j) → %s (valid: %s)', (text, level, valid) => {
    expect(parsePsaLevel(text)).toEqual({ level, valid });
  });
  it('CompareLevels orders privileged < baseline < restricted', () => {
    const table = PSA_LEVELS.map((a) => PSA_LEVELS.map((b) => comparePsaLevels(a, b)));
    expect(table).toEqual([
      [0, -1, -1],
      [1, 0, -1],
      [1, 1, 0],
    ]);
  });
  it('LevelVersion.String', () => {
    expect(formatLevelVersion(lv('restricted'))).toBe('restricted:latest');
    expect(formatLevelVersion(lv('baseline', v(25)))).toBe('baseline:v1.25');
  });
});

describe('policyFromLabels: helpers_test.go TestPolicyToEvaluate (defaults privileged:latest)', () => {
  const cases: { desc: string; labels: Record<string, string>; expect: PsaPolicy; expectErr?: boolean }[] = [
    { desc: 'simple enforce', labels: makeLabels('enforce', 'baseline'), expect: { enforce: lv('baseline'), warn: lv('baseline'), audit: privilegedLV } },
    { desc: 'simple warn', labels: makeLabels('warn', 'restricted'), expect: { enforce: privilegedLV, warn: lv('restricted'), audit: privilegedLV } },
    { desc: 'simple audit', labels: makeLabels('audit', 'baseline'), expect: { enforce: privilegedLV, warn: privilegedLV, audit: lv('baseline') } },
    { desc: 'enforce & warn', labels: makeLabels('enforce', 'baseline', 'warn', 'restricted'), expect: { enforce: lv('baseline'), warn: lv('restricted'), audit: privilegedLV } },
    { desc: 'enforce version', labels: makeLabels('enforce', 'baseline', 'enforce-version', 'v1.22'), expect: { enforce: lv('baseline', v(22)), warn: lv('baseline', v(22)), audit: privilegedLV } },
    {
      desc: 'enforce version & warn-version',
      labels: makeLabels('enforce', 'baseline', 'enforce-version', 'v1.22', 'warn-version', 'latest'),
      expect: { enforce: lv('baseline', v(22)), warn: lv('baseline'), audit: privilegedLV },
    },
    { desc: 'enforce & warn-version', labels: makeLabels('enforce', 'baseline', 'warn-version', 'v1.23'), expect: { enforce: lv('baseline'), warn: lv('baseline', v(23)), audit: privilegedLV } },
    {
      desc: 'fully specd',
      labels: makeLabels('enforce', 'baseline', 'enforce-version', 'v1.20', 'warn', 'restricted', 'warn-version', 'v1.21', 'audit', 'restricted', 'audit-version', 'v1.22'),
      expect: { enforce: lv('baseline', v(20)), warn: lv('restricted', v(21)), audit: lv('restricted', v(22)) },
    },
    { desc: 'enforce no warn', labels: makeLabels('enforce', 'baseline', 'warn', 'privileged'), expect: { enforce: lv('baseline'), warn: privilegedLV, audit: privilegedLV } },
    { desc: 'enforce warn error', labels: makeLabels('enforce', 'baseline', 'warn', 'foo'), expect: { enforce: lv('baseline'), warn: privilegedLV, audit: privilegedLV }, expectErr: true },
    { desc: 'enforce error', labels: makeLabels('enforce', 'foo'), expect: { enforce: lv('restricted'), warn: privilegedLV, audit: privilegedLV }, expectErr: true },
  ];
  it.each(cases)('$desc', ({ labels, expect: expected, expectErr }) => {
    expect(levelsAndVersions(labels)).toEqual(expected);
    expect(policyFromLabels(labels, privilegedPolicy).errors.length > 0).toBe(expectErr ?? false);
  });
});

describe('policyFromLabels: fallbacks, sources and configured defaults (helpers.go PolicyToEvaluate)', () => {
  it('an invalid audit level fails open to privileged; an invalid version is latest; the errors are field errors in label order (helpers.go:203-226, appendErr)', () => {
    const { policy, errors } = policyFromLabels(makeLabels('audit', 'Restricted', 'audit-version', 'v1.035', 'enforce-version', '1.30'), privilegedPolicy);
    expect(policy.audit).toMatchObject({ level: 'privileged', version: 'latest', source: 'fallback', levelSource: 'fallback', versionSource: 'fallback' });
    expect(policy.enforce).toMatchObject({ level: 'privileged', version: 'latest', source: 'fallback', levelSource: 'default', versionSource: 'fallback' });
    expect(errors).toEqual([
      { type: 'Invalid', path: ['metadata', 'labels', 'pod-security.kubernetes.io/enforce-version'], value: '1.30', detail: 'must be "latest" or "v1.x"' },
      { type: 'Invalid', path: ['metadata', 'labels', 'pod-security.kubernetes.io/audit'], value: 'Restricted', detail: 'must be one of privileged, baseline, restricted' },
      { type: 'Invalid', path: ['metadata', 'labels', 'pod-security.kubernetes.io/audit-version'], value: 'v1.035', detail: 'must be "latest" or "v1.x"' },
    ]);
  });

  it('an invalid enforce level fails closed and is a fallback, and warn does not inherit it (hasEnforceLevel = err == nil)', () => {
    const { policy } = policyFromLabels(makeLabels('enforce', 'strict'), privilegedPolicy);
    expect(policy.enforce).toMatchObject({ level: 'restricted', source: 'fallback' });
    expect(policy.warn).toMatchObject({ level: 'privileged', source: 'default', inheritedFromEnforce: false });
  });

  it('warn inherits from enforce: level from the label, version from wherever enforce\'s came from', () => {
    const { policy } = policyFromLabels(makeLabels('enforce', 'restricted', 'enforce-version', 'v1.99x'), privilegedPolicy);
    expect(policy.warn).toMatchObject({ level: 'restricted', version: 'latest', levelSource: 'label', versionSource: 'fallback', source: 'fallback', inheritedFromEnforce: true });
  });

  it('an invalid warn-version still counts as set: warn keeps latest, not enforce\'s version (hasWarnVersion is set before parsing)', () => {
    const { policy } = policyFromLabels(makeLabels('enforce', 'baseline', 'enforce-version', 'v1.22', 'warn-version', 'v1'), privilegedPolicy);
    expect(policy.warn).toMatchObject({ level: 'baseline', version: 'latest', versionSource: 'fallback' });
  });

  it.each([
    {
      desc: 'no labels: the configured defaults (len(labels) == 0)',
      labels: undefined,
      defaults: { enforce: lv('baseline', v(28)), audit: lv('restricted'), warn: lv('restricted') },
      expect: { enforce: lv('baseline', v(28)), audit: lv('restricted'), warn: lv('restricted') },
    },
    {
      desc: 'enforce not stricter than the default warn: warn keeps its default (CompareLevels > 0)',
      labels: makeLabels('enforce', 'baseline', 'enforce-version', 'v1.30'),
      defaults: { enforce: privilegedLV, audit: privilegedLV, warn: lv('restricted', v(25)) },
      expect: { enforce: lv('baseline', v(30)), audit: privilegedLV, warn: lv('restricted', v(25)) },
    },
    {
      desc: 'enforce stricter than the default warn: warn takes enforce\'s level and version',
      labels: makeLabels('enforce', 'restricted', 'enforce-version', 'v1.30'),
      defaults: { enforce: privilegedLV, audit: privilegedLV, warn: lv('baseline', v(25)) },
      expect: { enforce: lv('restricted', v(30)), audit: privilegedLV, warn: lv('restricted', v(30)) },
    },
    {
      desc: 'an enforce-version label alone does not make warn inherit',
      labels: makeLabels('enforce-version', 'v1.24'),
      defaults: { enforce: lv('restricted'), audit: privilegedLV, warn: privilegedLV },
      expect: { enforce: lv('restricted', v(24)), audit: privilegedLV, warn: privilegedLV },
    },
    {
      desc: 'a label overrides a stricter default (labels may loosen the cluster default)',
      labels: makeLabels('enforce', 'privileged'),
      defaults: { enforce: lv('restricted'), audit: lv('restricted'), warn: lv('restricted') },
      expect: { enforce: privilegedLV, audit: lv('restricted'), warn: lv('restricted') },
    },
  ])('$desc', ({ labels, defaults, expect: expected }) => {
    expect(levelsAndVersions(labels, defaults)).toEqual(expected);
  });

  it('a null label value decodes as "" (encoding/json), an invalid level; a number cannot be decoded and is left out', () => {
    const { policy, errors, undecodable } = policyFromLabels({ 'pod-security.kubernetes.io/enforce': null, 'pod-security.kubernetes.io/warn-version': 1.25 }, privilegedPolicy);
    expect(policy.enforce).toMatchObject({ level: 'restricted', source: 'fallback' });
    expect(errors.map((error) => error.value)).toEqual(['']);
    expect(undecodable).toEqual(['pod-security.kubernetes.io/warn-version']);
    expect(policy.warn.version).toBe('latest');
  });

  it('source summary: label when level or version comes from a label and neither is a fallback', () => {
    const { policy } = policyFromLabels(makeLabels('warn-version', 'v1.30'), privilegedPolicy);
    expect(policy.warn).toMatchObject({ levelSource: 'default', versionSource: 'label', source: 'label' });
    expect(policy.audit).toMatchObject({ source: 'default' });
  });
});

describe('effectivePolicy and exemptions (admission.go exemptNamespace, exemptUser, exemptRuntimeClass)', () => {
  const config: PodSecurityConfiguration = {
    ...DEFAULT_POD_SECURITY_CONFIGURATION,
    defaults: { enforce: lv('baseline'), audit: lv('restricted'), warn: lv('restricted') },
    exemptions: { namespaces: ['exempt-ns'], usernames: ['exempt-user'], runtimeClasses: ['exempt-runtimeclass'] },
  };

  it('an exempt namespace is exempt whatever its labels (TestValidatePodAndController "exempt namespace")', () => {
    const policy = effectivePolicy(makeLabels('enforce', 'restricted', 'warn', 'restricted', 'audit', 'restricted'), config, 'exempt-ns');
    expect(policy.exempt).toBe(true);
    expect(policy.enforce.level).toBe('restricted');
  });

  it('labels of a namespace that is not exempt (TestValidatePodAndController "enforce deny")', () => {
    const policy = effectivePolicy(makeLabels('enforce', 'restricted'), config, 'restricted-ns');
    expect(policy).toMatchObject({ exempt: false, labelsKnown: true, labelErrors: [] });
    expect(policy.enforce).toMatchObject({ level: 'restricted', source: 'label' });
  });

  it('unknown labels: the configured defaults, marked as such', () => {
    const policy = effectivePolicy(undefined, config, 'somewhere');
    expect(policy).toMatchObject({ exempt: false, labelsKnown: false, labelErrors: [] });
    expect(policy.enforce).toMatchObject({ level: 'baseline', version: 'latest', source: 'default' });
  });

  it('invalid labels fail closed and are reported (TestValidatePodAndController "invalid namespace labels")', () => {
    const policy = effectivePolicy(makeLabels('enforce', 'not-a-valid-level'), DEFAULT_POD_SECURITY_CONFIGURATION, 'invalid-ns');
    expect(policy.enforce.level).toBe('restricted');
    expect(policy.labelErrors).toHaveLength(1);
  });

  it.each([
    ['exempt-ns', true],
    ['exempt-ns-2', false],
    ['Exempt-ns', false],
    ['', false],
  ])('isExemptNamespace(%j) → %s (exact match; the empty namespace never)', (namespace, exempt) => {
    expect(isExemptNamespace(namespace, { ...config, exemptions: { ...config.exemptions, namespaces: ['exempt-ns', ''] } })).toBe(exempt);
  });

  it.each([
    ['exempt-user', true],
    ['system:serviceaccount:kube-system:replicaset-controller', false],
    ['', false],
  ])('isExemptUsername(%j) → %s (TestValidatePodAndController "exempt user")', (username, exempt) => {
    expect(isExemptUsername(username, { ...config, exemptions: { ...config.exemptions, usernames: ['exempt-user', ''] } })).toBe(exempt);
  });

  it.each([
    ['listed runtimeClassName', { runtimeClassName: 'exempt-runtimeclass' }, true],
    ['other runtimeClassName', { runtimeClassName: 'runc' }, false],
    ['empty runtimeClassName (len == 0)', { runtimeClassName: '' }, false],
    ['no runtimeClassName (nil)', {}, false],
    ['runtimeClassName not a string', { runtimeClassName: ['exempt-runtimeclass'] }, false],
    ['not a spec', 'exempt-runtimeclass', false],
  ])('isExemptRuntimeClass: %s (TestValidatePodAndController "exempt runtimeClass")', (_name, spec, exempt) => {
    expect(isExemptRuntimeClass(spec, { ...config, exemptions: { ...config.exemptions, runtimeClasses: ['exempt-runtimeclass', ''] } })).toBe(exempt);
  });
});

describe('resolvePsaVersion (policy/registry.go EvaluatePod: versions past the newest checks run the newest)', () => {
  it.each([
    ['latest on 1.35', 'latest', { minor: 35, how: 'latest' }],
    ['v1.25 on 1.35', v(25), { minor: 25, how: 'pinned' }],
    ['v1.35 on 1.35', v(35), { minor: 35, how: 'pinned' }],
    ['v1.40 on 1.35', v(40), { minor: 35, how: 'clamped' }],
    ['v1.0 on 1.35', v(0), { minor: 0, how: 'pinned' }],
  ] as const)('%s', (_name, version, resolved) => {
    expect(resolvePsaVersion(version, { major: 1, minor: 35 })).toEqual(resolved);
  });
});
