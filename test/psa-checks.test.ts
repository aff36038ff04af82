/**
 * Pod Security Admission checks (src/psa/): every upstream fixture (test/psa/fixtures/, see its
 * SOURCE.md) as a Pod and as a Deployment's pod template, upstream's unit-test expectations for
 * each check's reason and detail, the registry's ordering and overrides, what the API server
 * does to a pod before admission, the message texts, and robustness on hostile input.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkAllowPrivilegeEscalation } from '../src/psa/checks/allow-privilege-escalation.js';
import { appArmorProfileV1Dot0 } from '../src/psa/checks/app-armor-profile.js';
import { capabilitiesBaselineV1Dot0 } from '../src/psa/checks/capabilities-baseline.js';
import { capabilitiesRestrictedV1Dot22, capabilitiesRestrictedV1Dot25 } from '../src/psa/checks/capabilities-restricted.js';
import { decodePod } from '../src/psa/checks/decode.js';
import { compareGoStrings, goQuote, goString } from '../src/psa/checks/go-text.js';
import { hostNamespacesV1Dot0 } from '../src/psa/checks/host-namespaces.js';
import { hostPathVolumesV1Dot0 } from '../src/psa/checks/host-path-volumes.js';
import { hostPortsV1Dot0 } from '../src/psa/checks/host-ports.js';
import { hostProbesAndHostLifecycleV1Dot34 } from '../src/psa/checks/host-probes-and-host-lifecycle.js';
import { DEFAULT_CHECKS } from '../src/psa/checks/index.js';
import { privilegedV1Dot0 } from '../src/psa/checks/privileged.js';
import { procMountV1Dot0, procMountV1Dot35Baseline } from '../src/psa/checks/proc-mount-baseline.js';
import { buildRegistry, validateChecks } from '../src/psa/checks/registry.js';
import { restrictedVolumesV1Dot0 } from '../src/psa/checks/restricted-volumes.js';
import { runAsNonRootV1Dot35 } from '../src/psa/checks/run-as-non-root.js';
import { runAsUserV1Dot35 } from '../src/psa/checks/run-as-user.js';
import { seLinuxOptionsV1Dot31 } from '../src/psa/checks/se-linux-options.js';
import { seccompProfileBaselineV1Dot0, seccompProfileBaselineV1Dot19 } from '../src/psa/checks/seccomp-profile-baseline.js';
import { seccompProfileRestrictedV1Dot19, seccompProfileRestrictedV1Dot25 } from '../src/psa/checks/seccomp-profile-restricted.js';
import { sysctlsV1Dot0, sysctlsV1Dot27, sysctlsV1Dot29, sysctlsV1Dot32, sysctlsV1Dot37 } from '../src/psa/checks/sysctls.js';
import type { Check, CheckPodFn } from '../src/psa/checks/types.js';
import { windowsHostProcessV1Dot0 } from '../src/psa/checks/windows-host-process.js';
import { evaluatePod, NEWEST_POLICY_MINOR, podPassesAll } from '../src/psa/evaluate.js';
import type { PsaLevel } from '../src/psa/labels.js';
import {
  forbiddenDetail,
  forbiddenReason,
  levelVersionText,
  podForbiddenMessage,
  violatesMessage,
  wouldViolateMessage,
} from '../src/psa/message.js';

const FIXTURES = join(import.meta.dirname, 'psa', 'fixtures');

/**
 * What upstream's fixture test requires the message of each failing fixture to contain
 * (`expectErrorSubstring` in test/fixtures_<check>.go; the check ID where a generator sets none),
 * by the lower-cased check ID that names the fixture file.
 */
const EXPECTED_ERROR_SUBSTRING: Readonly<Record<string, string>> = {
  allowprivilegeescalation: 'allowPrivilegeEscalation',
  apparmorprofile: 'forbidden AppArmor profile',
  capabilities_baseline: 'capabilities',
  capabilities_restricted: 'unrestricted capabilities',
  hostnamespaces: 'host namespaces',
  hostpathvolumes: 'hostPath',
  hostports: 'hostPort',
  hostprobesandhostlifecycle: 'probe or lifecycle host',
  privileged: 'privileged',
  procmount: 'procMount',
  procmount_restricted: 'procMount',
  restrictedvolumes: 'restricted volume types',
  runasnonroot: 'runAsNonRoot',
  runasuser: 'runAsUser',
  selinuxoptions: 'seLinuxOptions',
  seccompprofile_baseline: 'seccompProfile',
  seccompprofile_restricted: 'seccompProfile',
  sysctls: 'forbidden sysctl',
  windowshostprocess: 'hostProcess',
};

interface Fixture {
  readonly level: 'baseline' | 'restricted';
  readonly minor: number;
  readonly expect: 'pass' | 'fail';
  readonly file: string;
  /** The lower-cased check ID the fixture was generated for; `base` for the minimal valid pods. */
  readonly check: string;
  readonly pod: { metadata?: unknown; spec?: unknown };
}

function loadFixtures(): Fixture[] {
  const fixtures: Fixture[] = [];
  for (const level of ['baseline', 'restricted'] as const) {
    for (const versionDir of readdirSync(join(FIXTURES, level))) {
      const minor = Number(/^v1\.(\d+)$/.exec(versionDir)![1]);
      for (const expectation of ['pass', 'fail'] as const) {
        const dir = join(FIXTURES, level, versionDir, expectation);
        for (const file of readdirSync(dir).sort()) {
          const check = /^(.*?)(?:_linux|_windows)?\d*\.yaml$/.exec(file)![1]!;
          const pod = parse(readFileSync(join(dir, file), 'utf8'), { version: '1.1' }) as Fixture['pod'];
          fixtures.push({ level, minor, expect: expectation, file: `${level}/${versionDir}/${expectation}/${file}`, check, pod });
        }
      }
    }
  }
  return fixtures;
}

const fixtures = loadFixtures();

/** The pod as a Deployment's template, read back out of the Deployment as a workload reader would. */
function asDeploymentTemplate(pod: Fixture['pod']): { metadata: unknown; spec: unknown } {
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'fixture' },
    spec: { selector: { matchLabels: { app: 'fixture' } }, template: { metadata: pod.metadata, spec: pod.spec } },
  };
  return deployment.spec.template;
}

/** One line per fixture whose verdict (or message) is not what upstream expects. */
function mismatches(group: readonly Fixture[]): string[] {
  const problems: string[] = [];
  for (const fixture of group) {
    const forms = [
      { form: 'pod', result: evaluatePod(fixture.level, { minor: fixture.minor }, fixture.pod.metadata, fixture.pod.spec) },
      (() => {
        const template = asDeploymentTemplate(fixture.pod);
        return { form: 'template', result: evaluatePod(fixture.level, { minor: fixture.minor }, template.metadata, template.spec, { object: 'template' }) };
      })(),
    ];
    for (const { form, result } of forms) {
      const message = wouldViolateMessage(fixture.level, { minor: fixture.minor }, result.failures);
      if (fixture.expect === 'pass' && !result.allowed) problems.push(`${fixture.file} (${form}): forbidden: ${message}`);
      if (fixture.expect === 'fail') {
        if (result.allowed) problems.push(`${fixture.file} (${form}): allowed`);
        else if (!message.includes(EXPECTED_ERROR_SUBSTRING[fixture.check]!)) problems.push(`${fixture.file} (${form}): ${message}`);
      }
    }
  }
  return problems;
}

describe('upstream fixtures', () => {
  it('are all there: 4537 files, v1.0 to v1.37 for both levels, pass and fail in every folder', () => {
    expect(fixtures).toHaveLength(4537);
    for (const level of ['baseline', 'restricted'] as const) {
      const minors = new Set(fixtures.filter((fixture) => fixture.level === level).map((fixture) => fixture.minor));
      expect([...minors].sort((a, b) => a - b)).toEqual(Array.from({ length: 38 }, (_, minor) => minor));
      for (const minor of minors) {
        for (const expectation of ['pass', 'fail'] as const) {
          expect(fixtures.some((f) => f.level === level && f.minor === minor && f.expect === expectation)).toBe(true);
        }
      }
    }
  });

  it('cover every check, and every failing fixture names a check with a known expected message', () => {
    const failing = new Set(fixtures.filter((fixture) => fixture.expect === 'fail').map((fixture) => fixture.check));
    expect([...failing].sort()).toEqual(Object.keys(EXPECTED_ERROR_SUBSTRING).sort());
    expect(DEFAULT_CHECKS.map((check) => check.id.toLowerCase()).sort()).toEqual(Object.keys(EXPECTED_ERROR_SUBSTRING).sort());
  });

  const groups = new Map<string, Fixture[]>();
  for (const fixture of fixtures) {
    const key = `${fixture.level} v1.${fixture.minor}`;
    groups.set(key, [...(groups.get(key) ?? []), fixture]);
  }
  for (const [key, group] of groups) {
    it(`${key}: ${group.length} fixtures get upstream's verdict as a Pod and as a Deployment template`, () => {
      expect(mismatches(group)).toEqual([]);
    });
  }
});

/** A pod view for calling one versioned check directly, as upstream's unit tests do (no API server defaults). */
function view(spec: unknown, annotations?: Record<string, unknown>) {
  return decodePod(annotations === undefined ? {} : { annotations }, spec);
}

interface UnitCase {
  readonly name: string;
  readonly check: CheckPodFn;
  readonly spec: unknown;
  readonly annotations?: Record<string, unknown>;
  /** [reason, detail], or null when the check allows the pod. */
  readonly expected: readonly [string, string] | null;
}

function withSecurityContext(securityContext: Record<string, unknown>) {
  return { securityContext };
}

/** Upstream's policy/check_*_test.go cases, translated from Go structs to JSON. */
const UNIT_CASES: readonly UnitCase[] = [
  // check_allowPrivilegeEscalation_test.go
  ...[
    { label: '1.8', fn: checkAllowPrivilegeEscalation.versions[0]!.checkPod },
    { label: '1.25', fn: checkAllowPrivilegeEscalation.versions[1]!.checkPod },
  ].map(({ label, fn }) => ({
    name: `allowPrivilegeEscalation ${label}: multiple containers`,
    check: fn,
    spec: {
      containers: [
        { name: 'a' },
        { name: 'b', ...withSecurityContext({ allowPrivilegeEscalation: null }) },
        { name: 'c', ...withSecurityContext({ allowPrivilegeEscalation: true }) },
        { name: 'd', ...withSecurityContext({ allowPrivilegeEscalation: false }) },
      ],
    },
    expected: ['allowPrivilegeEscalation != false', 'containers "a", "b", "c" must set securityContext.allowPrivilegeEscalation=false'] as const,
  })),
  {
    name: 'allowPrivilegeEscalation 1.25: windows pod, admit without checking privilegeEscalation',
    check: checkAllowPrivilegeEscalation.versions[1]!.checkPod,
    spec: { os: { name: 'windows' }, containers: [{ name: 'a' }] },
    expected: null,
  },
  {
    name: 'allowPrivilegeEscalation 1.25: linux pod, reject if security context is not set',
    check: checkAllowPrivilegeEscalation.versions[1]!.checkPod,
    spec: { os: { name: 'linux' }, containers: [{ name: 'a' }] },
    expected: ['allowPrivilegeEscalation != false', 'container "a" must set securityContext.allowPrivilegeEscalation=false'],
  },
  // check_appArmorProfile_test.go
  ...[
    { name: 'container with default AppArmor + extra annotations', annotations: { 'container.apparmor.security.beta.kubernetes.io/test': 'runtime/default', env: 'prod' }, spec: {} },
    { name: 'container with local AppArmor + extra annotations', annotations: { 'container.apparmor.security.beta.kubernetes.io/test': 'localhost/sec-profile01', env: 'dev' }, spec: {} },
    { name: 'container with no AppArmor annotations', annotations: { env: 'dev' }, spec: {} },
    { name: 'container with no annotations', spec: {} },
    { name: 'pod with runtime default', spec: { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } } },
    { name: 'container with localhost profile', spec: { containers: [{ name: 'foo', ...withSecurityContext({ appArmorProfile: { type: 'RuntimeDefault' } }) }] } },
  ].map((testCase) => ({ ...testCase, name: `appArmorProfile allowed: ${testCase.name}`, check: appArmorProfileV1Dot0, expected: null })),
  {
    name: 'appArmorProfile: unconfined pod',
    check: appArmorProfileV1Dot0,
    spec: { securityContext: { appArmorProfile: { type: 'Unconfined' } } },
    expected: ['forbidden AppArmor profile', 'pod must not set AppArmor profile type to "Unconfined"'],
  },
  {
    name: 'appArmorProfile: unconfined container',
    check: appArmorProfileV1Dot0,
    spec: { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } }, containers: [{ name: 'foo', ...withSecurityContext({ appArmorProfile: { type: 'Unconfined' } }) }] },
    expected: ['forbidden AppArmor profile', 'container "foo" must not set AppArmor profile type to "Unconfined"'],
  },
  {
    name: 'appArmorProfile: unconfined init container',
    check: appArmorProfileV1Dot0,
    spec: {
      securityContext: { appArmorProfile: { type: 'RuntimeDefault' } },
      containers: [{ name: 'foo' }],
      initContainers: [{ name: 'bar', ...withSecurityContext({ appArmorProfile: { type: 'Unconfined' } }) }],
    },
    expected: ['forbidden AppArmor profile', 'container "bar" must not set AppArmor profile type to "Unconfined"'],
  },
  {
    name: 'appArmorProfile: multiple containers',
    check: appArmorProfileV1Dot0,
    spec: {},
    annotations: {
      'container.apparmor.security.beta.kubernetes.io/': 'bogus',
      'container.apparmor.security.beta.kubernetes.io/a': '',
      'container.apparmor.security.beta.kubernetes.io/b': 'runtime/default',
      'container.apparmor.security.beta.kubernetes.io/c': 'localhost/',
      'container.apparmor.security.beta.kubernetes.io/d': 'localhost/foo',
      'container.apparmor.security.beta.kubernetes.io/e': 'unconfined',
      'container.apparmor.security.beta.kubernetes.io/f': 'unknown',
    },
    expected: [
      'forbidden AppArmor profiles',
      'annotations must not set AppArmor profile type to ' +
        [
          '"container.apparmor.security.beta.kubernetes.io/="bogus""',
          '"container.apparmor.security.beta.kubernetes.io/e="unconfined""',
          '"container.apparmor.security.beta.kubernetes.io/f="unknown""',
        ].join(', '),
    ],
  },
  // check_capabilities_baseline_test.go
  {
    name: 'capabilities_baseline: multiple containers',
    check: capabilitiesBaselineV1Dot0,
    spec: {
      containers: [
        { name: 'a', ...withSecurityContext({ capabilities: { add: ['FOO', 'BAR'] } }) },
        { name: 'b', ...withSecurityContext({ capabilities: { add: ['BAR', 'BAZ'] } }) },
      ],
    },
    expected: ['non-default capabilities', 'containers "a", "b" must not include "BAR", "BAZ", "FOO" in securityContext.capabilities.add'],
  },
  // check_capabilities_restricted_test.go
  ...[capabilitiesRestrictedV1Dot22, capabilitiesRestrictedV1Dot25].map((fn) => ({
    name: `capabilities_restricted (${fn.name}): multiple containers`,
    check: fn,
    spec: {
      containers: [
        { name: 'a', ...withSecurityContext({ capabilities: { add: ['FOO', 'BAR'] } }) },
        { name: 'b', ...withSecurityContext({ capabilities: { add: ['BAR', 'BAZ'] } }) },
        { name: 'c', ...withSecurityContext({ capabilities: { add: ['NET_BIND_SERVICE', 'CHOWN'], drop: ['ALL', 'FOO'] } }) },
      ],
    },
    expected: [
      'unrestricted capabilities',
      'containers "a", "b" must set securityContext.capabilities.drop=["ALL"]; containers "a", "b", "c" must not include "BAR", "BAZ", "CHOWN", "FOO" in securityContext.capabilities.add',
    ] as const,
  })),
  {
    name: 'capabilities_restricted 1.25: windows pod, admit without checking capabilities',
    check: capabilitiesRestrictedV1Dot25,
    spec: { os: { name: 'windows' }, containers: [{ name: 'a' }] },
    expected: null,
  },
  {
    name: 'capabilities_restricted 1.25: linux pod, reject if security context is not set',
    check: capabilitiesRestrictedV1Dot25,
    spec: { os: { name: 'linux' }, containers: [{ name: 'a' }] },
    expected: ['unrestricted capabilities', 'container "a" must set securityContext.capabilities.drop=["ALL"]'],
  },
  // check_hostNamespaces_test.go
  {
    name: 'hostNamespaces: multiple host namespaces',
    check: hostNamespacesV1Dot0,
    spec: { hostNetwork: true, hostIPC: true, hostPID: true },
    expected: ['host namespaces', 'hostNetwork=true, hostPID=true, hostIPC=true'],
  },
  // check_hostPathVolumes_test.go
  {
    name: 'hostPathVolumes: host path volumes',
    check: hostPathVolumesV1Dot0,
    spec: { volumes: [{ name: 'a', hostPath: {} }, { name: 'b', hostPath: {} }, { name: 'c', emptyDir: {} }] },
    expected: ['hostPath volumes', 'volumes "a", "b"'],
  },
  // check_hostPorts_test.go
  {
    name: 'hostPorts: one container, one host port',
    check: hostPortsV1Dot0,
    spec: { containers: [{ name: 'a', ports: [{ hostPort: 0 }] }, { name: 'b', ports: [{ hostPort: 0 }, { hostPort: 20 }] }] },
    expected: ['hostPort', 'container "b" uses hostPort 20'],
  },
  {
    name: 'hostPorts: multiple containers, multiple host port',
    check: hostPortsV1Dot0,
    spec: {
      containers: [
        { name: 'a', ports: [{ hostPort: 0 }] },
        { name: 'b', ports: [{ hostPort: 0 }, { hostPort: 10 }, { hostPort: 20 }] },
        { name: 'c', ports: [{ hostPort: 0 }, { hostPort: 10 }, { hostPort: 30 }] },
      ],
    },
    expected: ['hostPort', 'containers "b", "c" use hostPorts 10, 20, 30'],
  },
  // check_hostProbesAndhostLifecycle_test.go
  {
    name: 'hostProbesAndHostLifecycle: valid pod with unset hosts',
    check: hostProbesAndHostLifecycleV1Dot34,
    spec: { containers: [{ name: 'a', livenessProbe: { httpGet: {} }, readinessProbe: { tcpSocket: {} }, lifecycle: { postStart: { httpGet: {} } } }] },
    expected: null,
  },
  {
    name: 'hostProbesAndHostLifecycle: invalid pod with local host IP as probe host',
    check: hostProbesAndHostLifecycleV1Dot34,
    spec: {
      containers: [
        {
          name: 'a',
          livenessProbe: { httpGet: { host: '127.0.0.1' } },
          readinessProbe: { tcpSocket: { host: '::1' } },
          startupProbe: { httpGet: { host: 'localhost' } },
        },
      ],
    },
    expected: ['probe or lifecycle host', 'container "a" uses probe or lifecycle hosts "127.0.0.1", "::1", "localhost"'],
  },
  ...(
    [
      ['invalid httpget host in liveness probe', 'a', { livenessProbe: { httpGet: { host: 'invalid.host' } } }, 'invalid.host'],
      ['invalid tcpsocket host in readiness probe', 'b', { readinessProbe: { tcpSocket: { host: 'invalid.host' } } }, 'invalid.host'],
      ['invalid httpget host in startup probe', 'c', { startupProbe: { httpGet: { host: 'invalid.host' } } }, 'invalid.host'],
      ['invalid poststart tcpsocket host', 'd', { lifecycle: { postStart: { tcpSocket: { host: 'invalid.host' } } } }, 'invalid.host'],
      ['invalid prestop httpget host', 'e', { lifecycle: { preStop: { httpGet: { host: 'another.invalid.host' } } } }, 'another.invalid.host'],
      ['invalid ipv4 host in probe', 'a', { livenessProbe: { httpGet: { host: '8.8.8.8' } } }, '8.8.8.8'],
      ['invalid ipv6 host in probe', 'a', { livenessProbe: { tcpSocket: { host: '2001:4860:4860::8888' } } }, '2001:4860:4860::8888'],
    ] as const
  ).map(([name, container, fields, host]) => ({
    name: `hostProbesAndHostLifecycle: ${name}`,
    check: hostProbesAndHostLifecycleV1Dot34,
    spec: { containers: [{ name: container, ...fields }] },
    expected: ['probe or lifecycle host', `container "${container}" uses probe or lifecycle host "${host}"`] as const,
  })),
  {
    name: 'hostProbesAndHostLifecycle: multiple containers with multiple invalid hosts',
    check: hostProbesAndHostLifecycleV1Dot34,
    spec: {
      containers: [
        { name: 'valid' },
        { name: 'invalid1', livenessProbe: { httpGet: { host: 'a.com' } } },
        { name: 'invalid2', lifecycle: { preStop: { tcpSocket: { host: 'b.com' } } }, startupProbe: { httpGet: { host: 'a.com' } } },
      ],
    },
    expected: ['probe or lifecycle host', 'containers "invalid1", "invalid2" use probe or lifecycle hosts "a.com", "b.com"'],
  },
  {
    name: 'hostProbesAndHostLifecycle: invalid host in initcontainer',
    check: hostProbesAndHostLifecycleV1Dot34,
    spec: { initContainers: [{ name: 'init', livenessProbe: { httpGet: { host: 'invalid.init.host' } } }] },
    expected: ['probe or lifecycle host', 'container "init" uses probe or lifecycle host "invalid.init.host"'],
  },
  // check_privileged_test.go
  {
    name: 'privileged: privileged',
    check: privilegedV1Dot0,
    spec: {
      containers: [
        { name: 'a', securityContext: null },
        { name: 'b', ...withSecurityContext({}) },
        { name: 'c', ...withSecurityContext({ privileged: false }) },
        { name: 'd', ...withSecurityContext({ privileged: true }) },
        { name: 'e', ...withSecurityContext({ privileged: true }) },
      ],
    },
    expected: ['privileged', 'containers "d", "e" must not set securityContext.privileged=true'],
  },
  // check_procMount_baseline_test.go and check_procMount_restricted_test.go
  ...[true, false].map((hostUsers) => ({
    name: `procMount 1.35 baseline: hostUsers=${hostUsers}`,
    check: procMountV1Dot35Baseline,
    spec: procMountSpec(hostUsers),
    expected: hostUsers ? (['procMount', 'containers "d", "e" must not set securityContext.procMount to "Unmasked", "other"'] as const) : null,
  })),
  ...[true, false].map((hostUsers) => ({
    name: `procMount restricted: hostUsers=${hostUsers}`,
    check: procMountV1Dot0,
    spec: procMountSpec(hostUsers),
    expected: ['procMount', 'containers "d", "e" must not set securityContext.procMount to "Unmasked", "other"'] as const,
  })),
  // check_restrictedVolumes_test.go
  {
    name: 'restrictedVolumes: host path volumes',
    check: restrictedVolumesV1Dot0,
    spec: {
      volumes: [
        ...['emptyDir', 'secret', 'persistentVolumeClaim', 'downwardAPI', 'configMap', 'projected', 'csi', 'ephemeral', 'image'].map((source, i) => ({
          name: `a${i + 1}`,
          [source]: {},
        })),
        ...[
          'hostPath',
          'gcePersistentDisk',
          'awsElasticBlockStore',
          'gitRepo',
          'nfs',
          'iscsi',
          'glusterfs',
          'rbd',
          'flexVolume',
          'cinder',
          'cephfs',
          'flocker',
          'fc',
          'azureFile',
          'vsphereVolume',
          'quobyte',
          'azureDisk',
          'photonPersistentDisk',
          'portworxVolume',
          'scaleIO',
          'storageos',
        ].map((source, i) => ({ name: `b${i + 1}`, [source]: {} })),
        { name: 'c1' },
      ],
    },
    expected: [
      'restricted volume types',
      'volumes ' +
        '"b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9", "b10", "b11", "b12", "b13", "b14", "b15", "b16", "b17", "b18", "b19", "b20", "b21", "c1"' +
        ' use restricted volume types ' +
        '"awsElasticBlockStore", "azureDisk", "azureFile", "cephfs", "cinder", "fc", "flexVolume", "flocker", "gcePersistentDisk", "gitRepo", "glusterfs", ' +
        '"hostPath", "iscsi", "nfs", "photonPersistentDisk", "portworxVolume", "quobyte", "rbd", "scaleIO", "storageos", "unknown", "vsphereVolume"',
    ],
  },
  // check_runAsNonRoot_test.go
  {
    name: 'runAsNonRoot: no explicit runAsNonRoot',
    check: runAsNonRootV1Dot35,
    spec: { containers: [{ name: 'a' }] },
    expected: ['runAsNonRoot != true', 'pod or container "a" must set securityContext.runAsNonRoot=true'],
  },
  {
    name: 'runAsNonRoot: pod runAsNonRoot=false',
    check: runAsNonRootV1Dot35,
    spec: { securityContext: { runAsNonRoot: false }, containers: [{ name: 'a', securityContext: null }] },
    expected: ['runAsNonRoot != true', 'pod must not set securityContext.runAsNonRoot=false'],
  },
  {
    name: 'runAsNonRoot: containers runAsNonRoot=false',
    check: runAsNonRootV1Dot35,
    spec: {
      securityContext: { runAsNonRoot: true },
      containers: [
        { name: 'a', securityContext: null },
        { name: 'b', ...withSecurityContext({}) },
        { name: 'c', ...withSecurityContext({ runAsNonRoot: false }) },
        { name: 'd', ...withSecurityContext({ runAsNonRoot: false }) },
        { name: 'e', ...withSecurityContext({ runAsNonRoot: true }) },
        { name: 'f', ...withSecurityContext({ runAsNonRoot: true }) },
      ],
    },
    expected: ['runAsNonRoot != true', 'containers "c", "d" must not set securityContext.runAsNonRoot=false'],
  },
  {
    name: 'runAsNonRoot: pod nil, container fallthrough',
    check: runAsNonRootV1Dot35,
    spec: {
      containers: [
        { name: 'a', securityContext: null },
        { name: 'b', ...withSecurityContext({}) },
        { name: 'd', ...withSecurityContext({ runAsNonRoot: true }) },
        { name: 'e', ...withSecurityContext({ runAsNonRoot: true }) },
      ],
    },
    expected: ['runAsNonRoot != true', 'pod or containers "a", "b" must set securityContext.runAsNonRoot=true'],
  },
  { name: 'runAsNonRoot: host users false allowed', check: runAsNonRootV1Dot35, spec: { hostUsers: false }, expected: null },
  // check_runAsUser_test.go
  {
    name: 'runAsUser: pod runAsUser=0',
    check: runAsUserV1Dot35,
    spec: { securityContext: { runAsUser: 0 }, containers: [{ name: 'a', securityContext: null }] },
    expected: ['runAsUser=0', 'pod must not set runAsUser=0'],
  },
  {
    name: 'runAsUser: pod runAsUser=non-zero',
    check: runAsUserV1Dot35,
    spec: { securityContext: { runAsUser: 1000 }, containers: [{ name: 'a', securityContext: null }] },
    expected: null,
  },
  { name: 'runAsUser: pod runAsUser=nil', check: runAsUserV1Dot35, spec: { securityContext: { runAsUser: null }, containers: [{ name: 'a' }] }, expected: null },
  {
    name: 'runAsUser: containers runAsUser=0',
    check: runAsUserV1Dot35,
    spec: {
      securityContext: { runAsUser: 1000 },
      containers: [
        { name: 'a', securityContext: null },
        { name: 'b', ...withSecurityContext({}) },
        { name: 'c', ...withSecurityContext({ runAsUser: 0 }) },
        { name: 'd', ...withSecurityContext({ runAsUser: 0 }) },
        { name: 'e', ...withSecurityContext({ runAsUser: 1 }) },
        { name: 'f', ...withSecurityContext({ runAsUser: 1 }) },
      ],
    },
    expected: ['runAsUser=0', 'containers "c", "d" must not set runAsUser=0'],
  },
  {
    name: 'runAsUser: containers runAsUser=non-zero',
    check: runAsUserV1Dot35,
    spec: { containers: ['c', 'd', 'e', 'f'].map((name, i) => ({ name, ...withSecurityContext({ runAsUser: i + 1 }) })) },
    expected: null,
  },
  { name: 'runAsUser: host users false allowed', check: runAsUserV1Dot35, spec: { hostUsers: false }, expected: null },
  // check_seLinuxOptions_test.go
  {
    name: 'seLinuxOptions: invalid pod and containers',
    check: seLinuxOptionsV1Dot31,
    spec: {
      securityContext: { seLinuxOptions: { type: 'foo', user: 'bar', role: 'baz' } },
      containers: [...allowedSeLinuxContainers(), ...badSeLinuxContainers()],
    },
    expected: ['seLinuxOptions', 'pod and containers "e", "f", "g" set forbidden securityContext.seLinuxOptions: types "bar", "foo"; user may not be set; role may not be set'],
  },
  {
    name: 'seLinuxOptions: invalid pod',
    check: seLinuxOptionsV1Dot31,
    spec: { securityContext: { seLinuxOptions: { type: 'foo', user: 'bar', role: 'baz' } }, containers: allowedSeLinuxContainers() },
    expected: ['seLinuxOptions', 'pod set forbidden securityContext.seLinuxOptions: type "foo"; user may not be set; role may not be set'],
  },
  {
    name: 'seLinuxOptions: invalid containers',
    check: seLinuxOptionsV1Dot31,
    spec: { securityContext: { seLinuxOptions: {} }, containers: [...allowedSeLinuxContainers(), ...badSeLinuxContainers()] },
    expected: ['seLinuxOptions', 'containers "e", "f", "g" set forbidden securityContext.seLinuxOptions: type "bar"; user may not be set; role may not be set'],
  },
  ...(
    [
      ['bad type', { type: 'bad' }, 'type "bad"'],
      ['bad user', { user: 'bad' }, 'user may not be set'],
      ['bad role', { role: 'bad' }, 'role may not be set'],
    ] as const
  ).map(([name, options, problem]) => ({
    name: `seLinuxOptions: ${name}`,
    check: seLinuxOptionsV1Dot31,
    spec: { securityContext: { seLinuxOptions: options } },
    expected: ['seLinuxOptions', `pod set forbidden securityContext.seLinuxOptions: ${problem}`] as const,
  })),
  // check_seccompProfile_baseline_test.go
  {
    name: 'seccompProfile_baseline 1.0: pod seccomp invalid',
    check: seccompProfileBaselineV1Dot0,
    spec: {},
    annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' },
    expected: ['seccompProfile', 'forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined"'],
  },
  {
    name: 'seccompProfile_baseline 1.0: containers seccomp invalid',
    check: seccompProfileBaselineV1Dot0,
    spec: { containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] },
    annotations: { 'container.seccomp.security.alpha.kubernetes.io/a': 'unconfined', 'container.seccomp.security.alpha.kubernetes.io/b': 'unknown' },
    expected: [
      'seccompProfile',
      'forbidden annotations container.seccomp.security.alpha.kubernetes.io/a="unconfined", container.seccomp.security.alpha.kubernetes.io/b="unknown"',
    ],
  },
  {
    name: 'seccompProfile_baseline 1.0: pod and containers seccomp invalid',
    check: seccompProfileBaselineV1Dot0,
    spec: { containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] },
    annotations: {
      'seccomp.security.alpha.kubernetes.io/pod': 'unconfined',
      'container.seccomp.security.alpha.kubernetes.io/a': 'unconfined',
      'container.seccomp.security.alpha.kubernetes.io/b': 'unknown',
    },
    expected: [
      'seccompProfile',
      'forbidden annotations container.seccomp.security.alpha.kubernetes.io/a="unconfined", container.seccomp.security.alpha.kubernetes.io/b="unknown", seccomp.security.alpha.kubernetes.io/pod="unconfined"',
    ],
  },
  ...[seccompProfileBaselineV1Dot19, seccompProfileRestrictedV1Dot19, seccompProfileRestrictedV1Dot25].flatMap((fn) => [
    {
      name: `${fn.name}: pod seccomp invalid`,
      check: fn,
      spec: { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [{ name: 'a', securityContext: null }] },
      expected: ['seccompProfile', 'pod must not set securityContext.seccompProfile.type to "Unconfined"'] as const,
    },
    {
      name: `${fn.name}: containers seccomp invalid`,
      check: fn,
      spec: { securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: seccompContainers() },
      expected: ['seccompProfile', 'containers "c", "d" must not set securityContext.seccompProfile.type to "Unconfined"'] as const,
    },
  ]),
  {
    name: 'seccompProfile_baseline 1.19: pod and containers seccomp invalid',
    check: seccompProfileBaselineV1Dot19,
    spec: { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: seccompContainers() },
    expected: ['seccompProfile', 'pod and containers "c", "d" must not set securityContext.seccompProfile.type to "Unconfined"'],
  },
  // check_seccompProfile_restricted_test.go
  ...[seccompProfileRestrictedV1Dot19, seccompProfileRestrictedV1Dot25].flatMap((fn) => [
    {
      name: `${fn.name}: no explicit seccomp`,
      check: fn,
      spec: { containers: [{ name: 'a' }] },
      expected: ['seccompProfile', 'pod or container "a" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"'] as const,
    },
    {
      name: `${fn.name}: pod nil, container fallthrough`,
      check: fn,
      spec: {
        containers: [
          { name: 'a', securityContext: null },
          { name: 'b', ...withSecurityContext({}) },
          { name: 'd', ...withSecurityContext({ seccompProfile: { type: 'RuntimeDefault' } }) },
          { name: 'e', ...withSecurityContext({ seccompProfile: { type: 'RuntimeDefault' } }) },
        ],
      },
      expected: ['seccompProfile', 'pod or containers "a", "b" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"'] as const,
    },
  ]),
  { name: 'seccompProfile_restricted 1.25: no explicit seccomp, windows Pod', check: seccompProfileRestrictedV1Dot25, spec: { os: { name: 'windows' }, containers: [{ name: 'a' }] }, expected: null },
  {
    name: 'seccompProfile_restricted 1.25: no explicit seccomp, linux pod',
    check: seccompProfileRestrictedV1Dot25,
    spec: { os: { name: 'linux' }, containers: [{ name: 'a' }] },
    expected: ['seccompProfile', 'pod or container "a" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"'],
  },
  // check_sysctls_test.go: `a, b` is forbidden at every version; each list admits what it added
  ...[sysctlsV1Dot0, sysctlsV1Dot27, sysctlsV1Dot29, sysctlsV1Dot32, sysctlsV1Dot37].map((fn) => ({
    name: `${fn.name}: forbidden sysctls`,
    check: fn,
    spec: { securityContext: { sysctls: [{ name: 'a' }, { name: 'b' }] } },
    expected: ['forbidden sysctls', 'a, b'] as const,
  })),
  ...sysctlVersionCases(),
  // check_windowsHostProcess_test.go
  {
    name: 'windowsHostProcess: host process',
    check: windowsHostProcessV1Dot0,
    spec: {
      securityContext: { windowsOptions: { hostProcess: true } },
      containers: [
        { name: 'a', securityContext: null },
        { name: 'b', ...withSecurityContext({}) },
        { name: 'c', ...withSecurityContext({ windowsOptions: {} }) },
        { name: 'd', ...withSecurityContext({ windowsOptions: { hostProcess: false } }) },
        { name: 'e', ...withSecurityContext({ windowsOptions: { hostProcess: true } }) },
        { name: 'f', ...withSecurityContext({ windowsOptions: { hostProcess: true } }) },
      ],
    },
    expected: ['hostProcess', 'pod and containers "e", "f" must not set securityContext.windowsOptions.hostProcess=true'],
  },
];

function procMountSpec(hostUsers: boolean) {
  return {
    hostUsers,
    containers: [
      { name: 'a', securityContext: null },
      { name: 'b', ...withSecurityContext({}) },
      { name: 'c', ...withSecurityContext({ procMount: 'Default' }) },
      { name: 'd', ...withSecurityContext({ procMount: 'Unmasked' }) },
      { name: 'e', ...withSecurityContext({ procMount: 'other' }) },
    ],
  };
}

function allowedSeLinuxContainers() {
  return ['container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t'].map((type, i) => ({
    name: 'abcd'[i]!,
    ...withSecurityContext({ seLinuxOptions: { type } }),
  }));
}

function badSeLinuxContainers() {
  return [
    { name: 'e', ...withSecurityContext({ seLinuxOptions: { type: 'bar' } }) },
    { name: 'f', ...withSecurityContext({ seLinuxOptions: { user: 'bar' } }) },
    { name: 'g', ...withSecurityContext({ seLinuxOptions: { role: 'baz' } }) },
  ];
}

function seccompContainers() {
  return [
    { name: 'a', securityContext: null },
    { name: 'b', ...withSecurityContext({}) },
    { name: 'c', ...withSecurityContext({ seccompProfile: { type: 'Unconfined' } }) },
    { name: 'd', ...withSecurityContext({ seccompProfile: { type: 'Unconfined' } }) },
    { name: 'e', ...withSecurityContext({ seccompProfile: { type: 'RuntimeDefault' } }) },
    { name: 'f', ...withSecurityContext({ seccompProfile: { type: 'RuntimeDefault' } }) },
  ];
}

/** Each sysctl upstream's tests name, forbidden before the version that added it and allowed from it. */
function sysctlVersionCases(): UnitCase[] {
  const added: readonly [string, number][] = [
    ['net.ipv4.ip_local_reserved_ports', 27],
    ['net.ipv4.tcp_keepalive_time', 29],
    ['net.ipv4.tcp_fin_timeout', 29],
    ['net.ipv4.tcp_keepalive_intvl', 29],
    ['net.ipv4.tcp_keepalive_probes', 29],
    ['net.ipv4.tcp_rmem', 32],
    ['net.ipv4.tcp_wmem', 32],
    ['net.ipv4.tcp_slow_start_after_idle', 37],
    ['net.ipv4.tcp_notsent_lowat', 37],
  ];
  const versions: readonly [CheckPodFn, number][] = [
    [sysctlsV1Dot0, 0],
    [sysctlsV1Dot27, 27],
    [sysctlsV1Dot29, 29],
    [sysctlsV1Dot32, 32],
    [sysctlsV1Dot37, 37],
  ];
  return added.flatMap(([sysctl, since]) =>
    versions.map(([fn, minor]) => ({
      name: `${fn.name}: ${sysctl}`,
      check: fn,
      spec: { securityContext: { sysctls: [{ name: sysctl, value: '1' }] } },
      expected: minor >= since ? null : (['forbidden sysctls', sysctl] as const),
    })),
  );
}

describe('each check, as upstream unit-tests it (policy/check_*_test.go)', () => {
  for (const testCase of UNIT_CASES) {
    it(testCase.name, () => {
      const failure = testCase.check(view(testCase.spec, testCase.annotations));
      expect(failure === undefined ? null : [failure.reason, failure.detail]).toEqual(testCase.expected);
    });
  }
});

/** A check whose every version fails with the reason `<id>:v1.<minor>`, like upstream's generateCheck. */
function generatedCheck(id: string, level: 'baseline' | 'restricted', minors: number[], overrides: string[] = []): Check {
  return {
    id,
    level,
    source: 'generated',
    versions: minors.map((minor) => ({
      minimumVersion: minor,
      checkPod: () => ({ reason: `${id}:v1.${minor}`, detail: '', path: [] }),
      overrideCheckIds: overrides,
    })),
  };
}

function reasons(checks: readonly Check[], level: 'baseline' | 'restricted', minor: number): string[] {
  const pod = decodePod({}, {});
  return buildRegistry(checks)
    .checksFor(level, minor)
    .map((check) => check.checkPod(pod)!.reason);
}

describe('the registry (policy/registry_test.go)', () => {
  const checks: Check[] = [
    generatedCheck('a', 'baseline', [0]),
    generatedCheck('b', 'baseline', [10]),
    generatedCheck('c', 'baseline', [0, 5, 10]),
    generatedCheck('d', 'baseline', [11, 15, 20]),
    generatedCheck('e', 'restricted', [0]),
    generatedCheck('f', 'restricted', [12, 16, 21]),
    generatedCheck('g', 'restricted', [10], ['a']),
    generatedCheck('h', 'restricted', [0], ['b']),
    {
      ...generatedCheck('i', 'restricted', [10, 21]),
      versions: [
        { ...generatedCheck('i', 'restricted', [10]).versions[0]!, overrideCheckIds: ['c'] },
        { ...generatedCheck('i', 'restricted', [21]).versions[0]!, overrideCheckIds: ['d'] },
      ],
    },
  ];
  const cases: [string, 'baseline' | 'restricted', number, string[]][] = [
    ['baseline v1.0', 'baseline', 0, ['a:v1.0', 'c:v1.0']],
    ['baseline v1.4', 'baseline', 4, ['a:v1.0', 'c:v1.0']],
    ['baseline v1.5', 'baseline', 5, ['a:v1.0', 'c:v1.5']],
    ['baseline v1.10', 'baseline', 10, ['a:v1.0', 'b:v1.10', 'c:v1.10']],
    ['baseline v1.11', 'baseline', 11, ['a:v1.0', 'b:v1.10', 'c:v1.10', 'd:v1.11']],
    ['baseline latest', 'baseline', 21, ['a:v1.0', 'b:v1.10', 'c:v1.10', 'd:v1.20']],
    ['restricted v1.0', 'restricted', 0, ['a:v1.0', 'c:v1.0', 'e:v1.0', 'h:v1.0']],
    ['restricted v1.4', 'restricted', 4, ['a:v1.0', 'c:v1.0', 'e:v1.0', 'h:v1.0']],
    ['restricted v1.5', 'restricted', 5, ['a:v1.0', 'c:v1.5', 'e:v1.0', 'h:v1.0']],
    ['restricted v1.10', 'restricted', 10, ['e:v1.0', 'g:v1.10', 'h:v1.0', 'i:v1.10']],
    ['restricted v1.11', 'restricted', 11, ['d:v1.11', 'e:v1.0', 'g:v1.10', 'h:v1.0', 'i:v1.10']],
    ['restricted latest', 'restricted', 21, ['c:v1.10', 'e:v1.0', 'f:v1.21', 'g:v1.10', 'h:v1.0', 'i:v1.21']],
    ['restricted v1.10000', 'restricted', 10000, ['c:v1.10', 'e:v1.0', 'f:v1.21', 'g:v1.10', 'h:v1.0', 'i:v1.21']],
  ];
  for (const [name, level, minor, expected] of cases) {
    it(`TestCheckRegistry ${name}`, () => expect(reasons(checks, level, minor)).toEqual(expected));
  }

  it('TestCheckRegistry_NoBaseline: restricted checks alone, overrides of unknown IDs ignored', () => {
    const restrictedOnly = checks.filter((check) => ['e', 'f', 'g', 'h'].includes(check.id));
    expect(reasons(restrictedOnly, 'baseline', 21)).toEqual([]);
    expect(reasons(restrictedOnly, 'restricted', 10)).toEqual(['e:v1.0', 'g:v1.10', 'h:v1.0']);
    expect(reasons(restrictedOnly, 'restricted', 10000)).toEqual(['e:v1.0', 'f:v1.21', 'g:v1.10', 'h:v1.0']);
  });

  it('TestCheckRegistry_NoRestricted: restricted is baseline', () => {
    const baselineOnly = checks.filter((check) => check.level === 'baseline');
    for (const minor of [0, 4, 5, 10, 11, 20, 10000]) {
      expect(reasons(baselineOnly, 'restricted', minor)).toEqual(reasons(baselineOnly, 'baseline', minor));
    }
  });

  it('TestCheckRegistry_Empty', () => {
    expect(reasons([], 'restricted', 35)).toEqual([]);
  });

  it('orders IDs as Go strings (upper case before lower case), baseline before restricted', () => {
    const ordered = [generatedCheck('b', 'baseline', [0]), generatedCheck('Z', 'restricted', [0]), generatedCheck('a', 'restricted', [0]), generatedCheck('B', 'baseline', [0])];
    expect(reasons(ordered, 'restricted', 0)).toEqual(['B:v1.0', 'b:v1.0', 'Z:v1.0', 'a:v1.0']);
  });

  it('rejects malformed check lists (validateChecks, TestValidChecks)', () => {
    expect(() => validateChecks(DEFAULT_CHECKS)).not.toThrow();
    expect(() => validateChecks([generatedCheck('a', 'baseline', [0]), generatedCheck('a', 'restricted', [1])])).toThrow(/multiple checks/);
    expect(() => validateChecks([generatedCheck('a', 'baseline', [5, 5])])).toThrow(/strictly increasing/);
    expect(() => validateChecks([generatedCheck('a', 'baseline', [])])).toThrow(/empty/);
    expect(() => validateChecks([generatedCheck('a', 'baseline', [0], ['b'])])).toThrow(/only restricted/);
    expect(() => validateChecks([generatedCheck('r', 'restricted', [0]), generatedCheck('s', 'restricted', [0], ['r'])])).toThrow(/overrides restricted/);
  });

  it('the default checks override only baseline checks that exist', () => {
    const ids = new Map(DEFAULT_CHECKS.map((check) => [check.id, check.level]));
    for (const check of DEFAULT_CHECKS) {
      for (const version of check.versions) {
        for (const overridden of version.overrideCheckIds ?? []) expect(ids.get(overridden)).toBe('baseline');
      }
    }
  });
});

describe('evaluatePod: levels and versions', () => {
  const privilegedPod = { containers: [{ name: 'app', securityContext: { privileged: true } }] };

  it('privileged allows anything; restricted includes the baseline checks, listed first', () => {
    expect(evaluatePod('privileged', { minor: 35 }, {}, { hostNetwork: true, ...privilegedPod })).toEqual({ allowed: true, failures: [] });
    const result = evaluatePod('restricted', { minor: 35 }, {}, privilegedPod);
    expect(result.failures.map((failure) => failure.check)).toEqual(['privileged', 'allowPrivilegeEscalation', 'capabilities_restricted', 'runAsNonRoot', 'seccompProfile_restricted']);
  });

  it('evaluates a version newer than every check as the newest, and refuses versions no label can name', () => {
    const pod = { containers: [{ name: 'app', startupProbe: { httpGet: { host: 'localhost', port: 80 } } }] };
    expect(evaluatePod('baseline', { minor: 33 }, {}, pod).allowed).toBe(true);
    expect(evaluatePod('baseline', { minor: 34 }, {}, pod).allowed).toBe(false);
    expect(evaluatePod('baseline', { minor: 10000 }, {}, pod)).toEqual(evaluatePod('baseline', { minor: NEWEST_POLICY_MINOR }, {}, pod));
    expect(NEWEST_POLICY_MINOR).toBe(37);
    for (const minor of [-1, 1.5, Number.NaN]) expect(() => evaluatePod('baseline', { minor }, {}, pod)).toThrow(RangeError);
  });

  it('restricted v1.22 replaces the baseline capabilities check, v1.25 exempts Windows pods', () => {
    const netRaw = { containers: [{ name: 'app', securityContext: { capabilities: { add: ['NET_RAW'] } } }] };
    expect(evaluatePod('restricted', { minor: 21 }, {}, netRaw).failures.map((failure) => failure.reason)).toContain('non-default capabilities');
    const at22 = evaluatePod('restricted', { minor: 22 }, {}, netRaw).failures.map((failure) => failure.reason);
    expect(at22).toContain('unrestricted capabilities');
    expect(at22).not.toContain('non-default capabilities');

    const windows = { os: { name: 'windows' }, securityContext: { runAsNonRoot: true }, containers: [{ name: 'app' }] };
    expect(evaluatePod('restricted', { minor: 24 }, {}, windows).failures.map((failure) => failure.check)).toEqual([
      'allowPrivilegeEscalation',
      'capabilities_restricted',
      'seccompProfile_restricted',
    ]);
    expect(evaluatePod('restricted', { minor: 25 }, {}, windows).allowed).toBe(true);
  });

  it('baseline reads seccomp annotations before v1.19 and the seccompProfile field from v1.19', () => {
    const annotated = { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } };
    expect(evaluatePod('baseline', { minor: 18 }, annotated, { containers: [{ name: 'app' }] }).allowed).toBe(false);
    expect(evaluatePod('baseline', { minor: 19 }, annotated, { containers: [{ name: 'app' }] }).allowed).toBe(true);
    const unconfined = { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [{ name: 'app' }] };
    expect(evaluatePod('baseline', { minor: 18 }, {}, unconfined).allowed).toBe(true);
    expect(evaluatePod('baseline', { minor: 19 }, {}, unconfined).allowed).toBe(false);
  });

  it('from v1.35 a user-namespaced pod may run as root and unmask /proc at baseline, but restricted keeps /proc masked', () => {
    const userns = {
      hostUsers: false,
      securityContext: { runAsUser: 0, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [{ name: 'app', securityContext: { procMount: 'Unmasked', allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
    };
    expect(evaluatePod('baseline', { minor: 34 }, {}, userns).allowed).toBe(false);
    expect(evaluatePod('baseline', { minor: 35 }, {}, userns).allowed).toBe(true);
    expect(evaluatePod('restricted', { minor: 34 }, {}, userns).failures.map((failure) => failure.check)).toEqual(['procMount', 'runAsNonRoot', 'runAsUser']);
    expect(evaluatePod('restricted', { minor: 35 }, {}, userns).failures.map((failure) => failure.check)).toEqual(['procMount_restricted']);
  });

  it('seLinuxOptions type container_engine_t is allowed from v1.31', () => {
    const pod = { securityContext: { seLinuxOptions: { type: 'container_engine_t' } } };
    expect(evaluatePod('baseline', { minor: 30 }, {}, pod).allowed).toBe(false);
    expect(evaluatePod('baseline', { minor: 31 }, {}, pod).allowed).toBe(true);
  });
});

describe('evaluatePod: what the API server does before admission', () => {
  it('a sourceless volume is an emptyDir (every PodSpec)', () => {
    const spec = { securityContext: { runAsNonRoot: true }, volumes: [{ name: 'scratch' }] };
    for (const object of ['pod', 'template'] as const) expect(evaluatePod('restricted', { minor: 0 }, {}, spec, { object }).allowed).toBe(true);
    expect(restrictedVolumesV1Dot0(view(spec))?.detail).toBe('volume "scratch" uses restricted volume type "unknown"');
  });

  it('a Pod with hostNetwork gets its container ports as host ports; a template does not', () => {
    const spec = { hostNetwork: true, containers: [{ name: 'web', ports: [{ containerPort: 8080 }, { containerPort: 9090, hostPort: 9091 }] }] };
    const pod = evaluatePod('baseline', { minor: 35 }, {}, spec);
    expect(pod.failures.map((failure) => [failure.reason, failure.detail, failure.path])).toEqual([
      ['host namespaces', 'hostNetwork=true', ['spec', 'hostNetwork']],
      ['hostPort', 'container "web" uses hostPorts 8080, 9091', ['spec', 'containers', 0, 'ports', 0, 'containerPort']],
    ]);
    const template = evaluatePod('baseline', { minor: 35 }, {}, spec, { object: 'template' });
    expect(template.failures.map((failure) => failure.detail)).toEqual(['hostNetwork=true', 'container "web" uses hostPort 9091']);
  });

  it("a Pod's unconfined AppArmor annotation becomes its container's field; a template's does not", () => {
    const key = 'container.apparmor.security.beta.kubernetes.io/app';
    const metadata = { annotations: { [key]: 'unconfined' } };
    const spec = { containers: [{ name: 'app' }] };
    const [pod] = evaluatePod('baseline', { minor: 35 }, metadata, spec).failures;
    expect(pod).toEqual({
      check: 'appArmorProfile',
      reason: 'forbidden AppArmor profiles',
      detail: `container "app" and annotation must not set AppArmor profile type to "Unconfined", "${key}="unconfined""`,
      path: ['metadata', 'annotations', key],
    });
    const [template] = evaluatePod('baseline', { minor: 35 }, metadata, spec, { object: 'template' }).failures;
    expect([template?.reason, template?.detail]).toEqual(['forbidden AppArmor profile', `annotation must not set AppArmor profile type to "${key}="unconfined""`]);
    // Not copied for Windows pods, nor over a field, nor when the pod-level profile already says Unconfined.
    const notCopied = [
      { os: { name: 'windows' }, containers: [{ name: 'app' }] },
      { containers: [{ name: 'app', securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } }] },
      { securityContext: { appArmorProfile: { type: 'Unconfined' } }, containers: [{ name: 'app' }] },
    ];
    expect(notCopied.map((notCopiedSpec) => evaluatePod('baseline', { minor: 35 }, metadata, notCopiedSpec).failures[0]!.detail)).toEqual([
      `annotation must not set AppArmor profile type to "${key}="unconfined""`,
      `annotation must not set AppArmor profile type to "${key}="unconfined""`,
      `pod and annotation must not set AppArmor profile type to "Unconfined", "${key}="unconfined""`,
    ]);
  });
});

describe('evaluatePod: paths', () => {
  function paths(level: PsaLevel, spec: unknown, metadata: unknown = {}) {
    return Object.fromEntries(evaluatePod(level, { minor: 35 }, metadata, spec).failures.map((failure) => [failure.check, failure.path]));
  }

  it('name the first offending field of the first container the detail names (init containers first)', () => {
    const spec = {
      initContainers: [{ name: 'init', securityContext: { allowPrivilegeEscalation: false } }],
      containers: [
        { name: 'ok', securityContext: { privileged: false, capabilities: { add: ['CHOWN'] } } },
        { name: 'bad', securityContext: { privileged: true, capabilities: { add: ['CHOWN', 'SYS_ADMIN'] } } },
      ],
    };
    expect(paths('baseline', spec)).toEqual({
      capabilities_baseline: ['spec', 'containers', 1, 'securityContext', 'capabilities', 'add', 1],
      privileged: ['spec', 'containers', 1, 'securityContext', 'privileged'],
    });
    expect(paths('restricted', spec)).toMatchObject({
      allowPrivilegeEscalation: ['spec', 'containers', 0, 'securityContext', 'allowPrivilegeEscalation'],
      capabilities_restricted: ['spec', 'initContainers', 0, 'securityContext', 'capabilities', 'drop'],
      runAsNonRoot: ['spec', 'securityContext', 'runAsNonRoot'],
      seccompProfile_restricted: ['spec', 'securityContext', 'seccompProfile', 'type'],
    });
  });

  it('prefer a value set wrong to a value missing, and the pod to its containers', () => {
    const spec = {
      securityContext: { seLinuxOptions: { user: 'u' }, windowsOptions: { hostProcess: true } },
      containers: [{ name: 'a', securityContext: { runAsNonRoot: false, seccompProfile: { type: 'Unconfined' }, windowsOptions: { hostProcess: true } } }, { name: 'b' }],
      ephemeralContainers: [{ name: 'debug', securityContext: { seLinuxOptions: { type: 'spc_t' } } }],
    };
    expect(paths('restricted', spec)).toMatchObject({
      seLinuxOptions: ['spec', 'securityContext', 'seLinuxOptions', 'user'],
      windowsHostProcess: ['spec', 'securityContext', 'windowsOptions', 'hostProcess'],
      runAsNonRoot: ['spec', 'containers', 0, 'securityContext', 'runAsNonRoot'],
      seccompProfile_restricted: ['spec', 'containers', 0, 'securityContext', 'seccompProfile', 'type'],
    });
  });

  it('follow the detail where it sorts: annotations, and containers with probe hosts', () => {
    const metadata = {
      annotations: {
        'container.apparmor.security.beta.kubernetes.io/z': 'unconfined',
        'container.apparmor.security.beta.kubernetes.io/b': 'unconfined',
        'container.seccomp.security.alpha.kubernetes.io/z': 'unconfined',
        'seccomp.security.alpha.kubernetes.io/pod': 'unconfined',
      },
    };
    const spec = {
      containers: [
        { name: 'z', readinessProbe: { tcpSocket: { host: 'h' } } },
        { name: 'b', lifecycle: { preStop: { httpGet: { host: 'h' } } } },
      ],
    };
    expect(Object.fromEntries(evaluatePod('baseline', { minor: 18 }, metadata, spec, { object: 'template' }).failures.map((f) => [f.check, f.path]))).toEqual({
      appArmorProfile: ['metadata', 'annotations', 'container.apparmor.security.beta.kubernetes.io/b'],
      seccompProfile_baseline: ['metadata', 'annotations', 'container.seccomp.security.alpha.kubernetes.io/z'],
    });
    expect(paths('baseline', spec)).toEqual({ hostProbesAndHostLifecycle: ['spec', 'containers', 1, 'lifecycle', 'preStop', 'httpGet', 'host'] });
  });

  it('name the volume source, the sysctl and the host namespace', () => {
    const spec = {
      hostPID: true,
      hostIPC: true,
      securityContext: { runAsNonRoot: true, sysctls: [{ name: 'kernel.shm_rmid_forced' }, { name: 'kernel.msgmax' }] },
      volumes: [{ name: 'cfg', configMap: { name: 'x' } }, { name: 'data', nfs: { server: 's', path: '/' } }, { name: 'host', hostPath: { path: '/' } }],
    };
    expect(paths('baseline', spec)).toEqual({
      hostNamespaces: ['spec', 'hostPID'],
      hostPathVolumes: ['spec', 'volumes', 2, 'hostPath'],
      sysctls: ['spec', 'securityContext', 'sysctls', 1, 'name'],
    });
    expect(paths('restricted', spec)).toMatchObject({ restrictedVolumes: ['spec', 'volumes', 1, 'nfs'] });
  });
});

describe('Go text', () => {
  it('quotes as strconv.Quote does', () => {
    expect(goQuote('plain "quoted" \\ é 日本')).toBe('"plain \\"quoted\\" \\\\ é 日本"');
    expect(goQuote('\x07\b\f\n\r\t\v')).toBe('"\\a\\b\\f\\n\\r\\t\\v"');
    expect(goQuote('\x00\x1b\x7f')).toBe('"\\x00\\x1b\\x7f"');
    expect(goQuote('\u00a0\u00ad\u200b\u2028\ue000')).toBe('"\\u00a0\\u00ad\\u200b\\u2028\\ue000"');
    expect(goQuote('\u{e0001}\u{1f600}')).toBe('"\\U000e0001\u{1f600}"');
    // encoding/json reads an unpaired surrogate escape as U+FFFD, which is printable.
    expect(goQuote('a\ud800b')).toBe('"a\ufffdb"');
  });

  it('reads a string as Go holds it: each unpaired surrogate U+FFFD, all else as it is', () => {
    expect(goString('plain é 日本 \u{1f600}')).toBe('plain é 日本 \u{1f600}');
    expect(goString('a\ud800b\udc00c\ud83d')).toBe('a\ufffdb\ufffdc\ufffd');
    expect(goString('\udc00\ud800')).toBe('\ufffd\ufffd');
  });

  it('sorts as Go strings (UTF-8 byte order), not UTF-16 code units', () => {
    expect(['\u{1f600}', '\uff01', 'a', 'B'].sort(compareGoStrings)).toEqual(['B', 'a', '\uff01', '\u{1f600}']);
    const detail = capabilitiesBaselineV1Dot0(view({ containers: [{ name: 'c', securityContext: { capabilities: { add: ['\u{1f600}', '\uff01'] } } }] }))?.detail;
    expect(detail).toBe('container "c" must not include "\uff01", "\u{1f600}" in securityContext.capabilities.add');
  });

  it('sorts host ports as text, as upstream does', () => {
    expect(hostPortsV1Dot0(view({ containers: [{ name: 'c', ports: [{ hostPort: 9 }, { hostPort: 10 }] }] }))?.detail).toBe('container "c" uses hostPorts 10, 9');
  });

  it('quotes annotation values in details', () => {
    const failure = seccompProfileBaselineV1Dot0(view({}, { 'seccomp.security.alpha.kubernetes.io/pod': 'a\n"b"' }));
    expect(failure?.detail).toBe('forbidden annotation seccomp.security.alpha.kubernetes.io/pod="a\\n\\"b\\""');
  });
});

describe('messages', () => {
  const nginx = parse('apiVersion: v1\nkind: Pod\nmetadata:\n  name: nginx\nspec:\n  containers:\n    - image: nginx\n      name: nginx\n      ports:\n        - containerPort: 80\n') as {
    metadata: unknown;
    spec: unknown;
  };

  it('match the warning the Kubernetes documentation shows for example-baseline-pod.yaml (tutorials/security/ns-level-pss.md)', () => {
    const { failures } = evaluatePod('restricted', { minor: 35 }, nginx.metadata, nginx.spec);
    expect(wouldViolateMessage('restricted', 'latest', failures)).toBe(
      'would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "nginx" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "nginx" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "nginx" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
  });

  it('reject a Pod as the API server does, naming the policy as labelled', () => {
    const spec = { hostPID: true, containers: [{ name: 'ubuntu', securityContext: { privileged: true } }] };
    const { failures } = evaluatePod('baseline', { minor: 40 }, {}, spec);
    expect(podForbiddenMessage('privileged-pod', 'baseline', { minor: 40 }, failures)).toBe(
      'pods "privileged-pod" is forbidden: violates PodSecurity "baseline:v1.40": host namespaces (hostPID=true), privileged (container "ubuntu" must not set securityContext.privileged=true)',
    );
    expect(podForbiddenMessage('', 'baseline', 'latest', failures)).toMatch(/^pods is forbidden: violates PodSecurity "baseline:latest": /);
    expect(violatesMessage('baseline', 'latest', failures)).toBe(
      'violates PodSecurity "baseline:latest": host namespaces (hostPID=true), privileged (container "ubuntu" must not set securityContext.privileged=true)',
    );
    expect(forbiddenReason(failures)).toBe('host namespaces, privileged');
  });

  it('aggregate as AggregateCheckResult does: no parentheses without a detail, a placeholder without a reason', () => {
    expect(forbiddenDetail([{ reason: 'a', detail: '' }, { reason: '', detail: 'x' }, { reason: 'c', detail: 'y' }])).toBe('a, unknown forbidden reason (x), c (y)');
    expect(forbiddenReason([{ reason: '', detail: '' }])).toBe('unknown forbidden reason');
    expect(levelVersionText('restricted', { minor: 0 })).toBe('restricted:v1.0');
  });
});

describe('hostile and mistyped input', () => {
  it('reads values of the wrong type as absent (the API server would reject the object before admission)', () => {
    const mistyped = {
      hostNetwork: 'true',
      hostPID: 1,
      securityContext: { runAsUser: '0', sysctls: 'kernel.msgmax', windowsOptions: { hostProcess: 'true' } },
      containers: [
        { name: 'app', securityContext: { privileged: 'true', capabilities: { add: [{ name: 'SYS_ADMIN' }, 7] } }, ports: [{ hostPort: 80.5 }, { hostPort: 2 ** 31 }] },
        'not a container',
        null,
      ],
      volumes: [{ name: 'v', hostPath: '/etc' }],
    };
    expect(evaluatePod('baseline', { minor: 35 }, { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 1 } }, mistyped)).toEqual({ allowed: true, failures: [] });
    expect(evaluatePod('baseline', { minor: 35 }, 'metadata', 42)).toEqual({ allowed: true, failures: [] });
  });

  it('never reads inherited properties', () => {
    const inherited = Object.create({ hostNetwork: true, containers: [{ name: 'x', securityContext: { privileged: true } }] }) as unknown;
    expect(evaluatePod('baseline', { minor: 35 }, {}, inherited).allowed).toBe(true);
    const protoKey = JSON.parse('{"__proto__": {"hostNetwork": true}, "containers": [{"name": "constructor"}]}') as unknown;
    expect(evaluatePod('baseline', { minor: 35 }, JSON.parse('{"annotations": {"__proto__": "x"}}'), protoKey).allowed).toBe(true);
  });

  it('never throws, and reports consistently, on arbitrary values', () => {
    const anyValue = fc.anything({ maxDepth: 3, withNullPrototype: true, withObjectString: true });
    const securityContext = fc.dictionary(
      fc.constantFrom('privileged', 'allowPrivilegeEscalation', 'capabilities', 'procMount', 'runAsNonRoot', 'runAsUser', 'seccompProfile', 'seLinuxOptions', 'windowsOptions', 'appArmorProfile', 'sysctls'),
      anyValue,
    );
    const container = fc.record(
      { name: fc.oneof(fc.string(), anyValue), securityContext: fc.oneof(securityContext, anyValue), ports: anyValue, livenessProbe: anyValue, lifecycle: anyValue },
      { requiredKeys: [] },
    );
    const spec = fc.record(
      {
        os: anyValue,
        hostUsers: anyValue,
        hostNetwork: anyValue,
        securityContext: fc.oneof(securityContext, anyValue),
        initContainers: fc.array(fc.oneof(container, anyValue), { maxLength: 3 }),
        containers: fc.array(fc.oneof(container, anyValue), { maxLength: 3 }),
        ephemeralContainers: fc.oneof(fc.array(container, { maxLength: 2 }), anyValue),
        volumes: fc.array(fc.oneof(fc.dictionary(fc.constantFrom('name', 'hostPath', 'nfs', 'emptyDir'), anyValue), anyValue), { maxLength: 3 }),
      },
      { requiredKeys: [] },
    );
    const metadata = fc.oneof(fc.record({ annotations: fc.oneof(fc.dictionary(fc.string(), fc.oneof(fc.string(), anyValue)), anyValue) }), anyValue);
    fc.assert(
      fc.property(fc.constantFrom('baseline', 'restricted') as fc.Arbitrary<PsaLevel>, fc.nat(40), metadata, fc.oneof(spec, anyValue), fc.constantFrom('pod', 'template') as fc.Arbitrary<'pod' | 'template'>, (level, minor, podMetadata, podSpec, object) => {
        const result = evaluatePod(level, { minor }, podMetadata, podSpec, { object });
        expect(result.allowed).toBe(result.failures.length === 0);
        for (const failure of result.failures) {
          expect(['metadata', 'spec']).toContain(failure.path[0]);
          expect(failure.reason).not.toBe('');
        }
        expect(typeof wouldViolateMessage(level, { minor }, result.failures)).toBe('string');
        // How a pod is prepared never changes whether it is allowed: the screen's shortcut relies on it.
        const other = evaluatePod(level, { minor }, podMetadata, podSpec, { object: object === 'pod' ? 'template' : 'pod' });
        expect(other.allowed).toBe(result.allowed);
        expect(podPassesAll([{ level, minor }, { level: 'baseline', minor }], podMetadata, podSpec)).toBe(result.allowed && evaluatePod('baseline', { minor }, podMetadata, podSpec).allowed);
      }),
      { numRuns: 2000 },
    );
  });
});
