import { describe, expect, it } from 'vitest';
import { BUILTIN_GROUP_VERSIONS } from '../src/kube/discovery/builtin-data.js';
import type { GroupVersionEntry, MinorVersion, ResourceEntry } from '../src/kube/discovery/types.js';

const minor = (version: MinorVersion): number => Number(version.split('.')[1]);

function served(at: number, since: MinorVersion | undefined, removed: MinorVersion | undefined): boolean {
  return (since === undefined || at >= minor(since)) && (removed === undefined || at < minor(removed));
}

function groupVersion(group: string, version: string): GroupVersionEntry {
  const entry = BUILTIN_GROUP_VERSIONS.find((gv) => gv.group === group && gv.version === version);
  if (entry === undefined) throw new Error(`no ${group || '(core)'}/${version}`);
  return entry;
}

function resource(group: string, version: string, name: string): ResourceEntry {
  const entry = groupVersion(group, version).resources.find((r) => r.name === name);
  if (entry === undefined) throw new Error(`no ${name} in ${group || '(core)'}/${version}`);
  return entry;
}

/** The group/version/resource triples served at a minor version. */
function servedAt(at: number): Set<string> {
  const out = new Set<string>();
  for (const gv of BUILTIN_GROUP_VERSIONS) {
    if (!served(at, gv.since, gv.removed)) continue;
    for (const r of gv.resources) if (served(at, r.since, r.removed)) out.add(`${gv.group}/${gv.version}/${r.name}`);
  }
  return out;
}

describe('built-in discovery data: shape', () => {
  it('has no duplicate group/version', () => {
    const keys = BUILTIN_GROUP_VERSIONS.map((gv) => `${gv.group}/${gv.version}`);
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
  });

  it('has no duplicate resource within a group/version', () => {
    for (const gv of BUILTIN_GROUP_VERSIONS) {
      const names = gv.resources.map((r) => r.name);
      expect(names.filter((name, i) => names.indexOf(name) !== i), `${gv.group}/${gv.version}`).toEqual([]);
    }
  });

  it('has no duplicate subresource, and connect ⊆ subresources', () => {
    for (const gv of BUILTIN_GROUP_VERSIONS) {
      for (const r of gv.resources) {
        const subs = r.subresources ?? [];
        expect(new Set(subs).size, `${gv.group}/${gv.version} ${r.name}`).toBe(subs.length);
        for (const c of r.connect ?? []) expect(subs, `${gv.group}/${gv.version} ${r.name} connect ${c}`).toContain(c);
      }
    }
  });

  it('uses lower-case plural names, kinds in PascalCase, and no "/" in names', () => {
    for (const gv of BUILTIN_GROUP_VERSIONS) {
      for (const r of gv.resources) {
        expect(r.name).toMatch(/^[a-z]+$/);
        expect(r.kind).toMatch(/^[A-Z][A-Za-z]+$/);
        for (const s of r.subresources ?? []) expect(s).toMatch(/^[a-z]+$/);
      }
    }
  });

  it('has consistent version ranges', () => {
    for (const gv of BUILTIN_GROUP_VERSIONS) {
      const where = `${gv.group}/${gv.version}`;
      if (gv.removed !== undefined) expect(minor(gv.removed), where).toBeGreaterThan(minor(gv.since));
      expect(gv.resources.length, where).toBeGreaterThan(0);
      for (const r of gv.resources) {
        const since = r.since ?? gv.since;
        const removed = r.removed ?? gv.removed;
        if (r.since !== undefined) expect(minor(r.since), `${where} ${r.name}`).toBeGreaterThan(minor(gv.since));
        if (r.removed !== undefined && gv.removed !== undefined) expect(minor(r.removed), `${where} ${r.name}`).toBeLessThanOrEqual(minor(gv.removed));
        if (removed !== undefined) expect(minor(removed), `${where} ${r.name}`).toBeGreaterThan(minor(since));
      }
    }
  });

  it('keeps a resource at the same scope and kind in every version of its group', () => {
    const seen = new Map<string, { kind: string; namespaced: boolean }>();
    for (const gv of BUILTIN_GROUP_VERSIONS) {
      for (const r of gv.resources) {
        const key = `${gv.group}/${r.name}`;
        const before = seen.get(key);
        if (before === undefined) seen.set(key, { kind: r.kind, namespaced: r.namespaced });
        else expect({ kind: r.kind, namespaced: r.namespaced }, key).toEqual(before);
      }
    }
  });

  it('lets only the documented CONNECT subresources accept CONNECT', () => {
    const connect: string[] = [];
    for (const gv of BUILTIN_GROUP_VERSIONS) for (const r of gv.resources) for (const c of r.connect ?? []) connect.push(`${gv.group}/${gv.version} ${r.name}/${c}`);
    expect(connect.sort()).toEqual(['/v1 nodes/proxy', '/v1 pods/attach', '/v1 pods/exec', '/v1 pods/portforward', '/v1 pods/proxy', '/v1 services/proxy']);
    expect(BUILTIN_GROUP_VERSIONS.some((gv) => gv.resources.some((r) => r.connectMain === true))).toBe(false);
  });
});

describe('built-in discovery data: spot checks', () => {
  it('pods in core v1', () => {
    const pods = resource('', 'v1', 'pods');
    expect(pods).toMatchObject({ kind: 'Pod', namespaced: true });
    expect(pods.subresources).toEqual(expect.arrayContaining(['exec', 'log', 'status', 'eviction', 'binding', 'ephemeralcontainers', 'attach', 'portforward', 'proxy']));
    expect([...(pods.connect ?? [])].sort()).toEqual(['attach', 'exec', 'portforward', 'proxy']);
  });

  it('nodes, namespaces and services in core v1', () => {
    const nodes = resource('', 'v1', 'nodes');
    expect(nodes.namespaced).toBe(false);
    expect(nodes.subresources).toEqual(expect.arrayContaining(['status', 'proxy']));
    expect(nodes.connect).toEqual(['proxy']);
    const namespaces = resource('', 'v1', 'namespaces');
    expect(namespaces.namespaced).toBe(false);
    expect(namespaces.subresources).toEqual(expect.arrayContaining(['status', 'finalize']));
    expect(resource('', 'v1', 'services').connect).toEqual(['proxy']);
    expect(resource('', 'v1', 'serviceaccounts').subresources).toEqual(['token']);
    expect(resource('', 'v1', 'bindings')).toMatchObject({ kind: 'Binding', namespaced: true });
  });

  it('deployments in apps/v1', () => {
    const deployments = resource('apps', 'v1', 'deployments');
    expect(deployments.namespaced).toBe(true);
    expect(deployments.subresources).toEqual(expect.arrayContaining(['status', 'scale']));
  });

  it('leases in coordination.k8s.io/v1', () => {
    expect(resource('coordination.k8s.io', 'v1', 'leases')).toMatchObject({ kind: 'Lease', namespaced: true });
  });

  it('certificatesigningrequests in certificates.k8s.io/v1', () => {
    const csr = resource('certificates.k8s.io', 'v1', 'certificatesigningrequests');
    expect(csr.namespaced).toBe(false);
    expect(csr.subresources).toEqual(expect.arrayContaining(['approval', 'status']));
  });

  it('create-only review resources', () => {
    expect(resource('authentication.k8s.io', 'v1', 'tokenreviews').namespaced).toBe(false);
    expect(resource('authentication.k8s.io', 'v1', 'selfsubjectreviews')).toMatchObject({ namespaced: false, since: '1.28' });
    expect(resource('authorization.k8s.io', 'v1', 'localsubjectaccessreviews').namespaced).toBe(true);
    for (const name of ['subjectaccessreviews', 'selfsubjectaccessreviews', 'selfsubjectrulesreviews']) {
      expect(resource('authorization.k8s.io', 'v1', name).namespaced).toBe(false);
    }
  });

  it('customresourcedefinitions, apiservices and priorityclasses', () => {
    const crds = resource('apiextensions.k8s.io', 'v1', 'customresourcedefinitions');
    expect(crds.namespaced).toBe(false);
    expect(crds.subresources).toEqual(['status']);
    expect(resource('apiregistration.k8s.io', 'v1', 'apiservices')).toMatchObject({ kind: 'APIService', namespaced: false });
    expect(resource('scheduling.k8s.io', 'v1', 'priorityclasses')).toMatchObject({ kind: 'PriorityClass', namespaced: false });
  });

  it('horizontalpodautoscalers in autoscaling v1 and v2', () => {
    for (const version of ['v1', 'v2']) {
      expect(resource('autoscaling', version, 'horizontalpodautoscalers')).toMatchObject({ namespaced: true, subresources: ['status'] });
    }
  });
});

describe('built-in discovery data: what each version serves', () => {
  const at35 = servedAt(35);

  it('serves the 1.35 default group versions and nothing that is off by default', () => {
    const gvs = BUILTIN_GROUP_VERSIONS.filter((gv) => served(35, gv.since, gv.removed)).map((gv) => `${gv.group}/${gv.version}`);
    expect(gvs.sort()).toEqual(
      [
        '/v1',
        'admissionregistration.k8s.io/v1',
        'apiextensions.k8s.io/v1',
        'apiregistration.k8s.io/v1',
        'apps/v1',
        'authentication.k8s.io/v1',
        'authorization.k8s.io/v1',
        'autoscaling/v1',
        'autoscaling/v2',
        'batch/v1',
        'certificates.k8s.io/v1',
        'coordination.k8s.io/v1',
        'discovery.k8s.io/v1',
        'events.k8s.io/v1',
        'flowcontrol.apiserver.k8s.io/v1',
        'networking.k8s.io/v1',
        'node.k8s.io/v1',
        'policy/v1',
        'rbac.authorization.k8s.io/v1',
        'resource.k8s.io/v1',
        'scheduling.k8s.io/v1',
        'storage.k8s.io/v1',
      ].sort(),
    );
  });

  it('serves the newer GA resources in 1.35', () => {
    for (const key of [
      'admissionregistration.k8s.io/v1/validatingadmissionpolicies',
      'admissionregistration.k8s.io/v1/validatingadmissionpolicybindings',
      'networking.k8s.io/v1/ipaddresses',
      'networking.k8s.io/v1/servicecidrs',
      'storage.k8s.io/v1/volumeattributesclasses',
      'storage.k8s.io/v1/csistoragecapacities',
      'resource.k8s.io/v1/resourceclaims',
      'resource.k8s.io/v1/resourceslices',
      'authentication.k8s.io/v1/selfsubjectreviews',
      'batch/v1/cronjobs',
    ]) {
      expect(at35.has(key), key).toBe(true);
    }
    expect(at35.has('admissionregistration.k8s.io/v1/mutatingadmissionpolicies')).toBe(false);
    expect(servedAt(36).has('admissionregistration.k8s.io/v1/mutatingadmissionpolicies')).toBe(true);
  });

  it('follows the deprecation guide for removed beta versions', () => {
    expect(servedAt(24).has('batch/v1beta1/cronjobs')).toBe(true);
    expect(servedAt(25).has('batch/v1beta1/cronjobs')).toBe(false);
    expect(servedAt(24).has('policy/v1beta1/podsecuritypolicies')).toBe(true);
    expect(servedAt(25).has('policy/v1beta1/podsecuritypolicies')).toBe(false);
    expect(servedAt(25).has('autoscaling/v2beta2/horizontalpodautoscalers')).toBe(true);
    expect(servedAt(26).has('autoscaling/v2beta2/horizontalpodautoscalers')).toBe(false);
    expect(servedAt(26).has('storage.k8s.io/v1beta1/csistoragecapacities')).toBe(true);
    expect(servedAt(27).has('storage.k8s.io/v1beta1/csistoragecapacities')).toBe(false);
    expect(servedAt(22).has('storage.k8s.io/v1beta1/storageclasses')).toBe(false);
    expect(servedAt(25).has('flowcontrol.apiserver.k8s.io/v1beta1/flowschemas')).toBe(true);
    expect(servedAt(28).has('flowcontrol.apiserver.k8s.io/v1beta2/flowschemas')).toBe(true);
    expect(servedAt(29).has('flowcontrol.apiserver.k8s.io/v1beta2/flowschemas')).toBe(false);
    expect(servedAt(31).has('flowcontrol.apiserver.k8s.io/v1beta3/flowschemas')).toBe(true);
    expect(servedAt(32).has('flowcontrol.apiserver.k8s.io/v1beta3/flowschemas')).toBe(false);
    expect(servedAt(22).has('admissionregistration.k8s.io/v1beta1/validatingwebhookconfigurations')).toBe(false);
    expect(servedAt(21).has('admissionregistration.k8s.io/v1beta1/validatingwebhookconfigurations')).toBe(true);
  });

  it('serves webhook configurations, pods and the review resources in every modelled version', () => {
    for (let at = 22; at <= 37; at++) {
      const s = servedAt(at);
      for (const key of [
        'admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
        'admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
        '/v1/pods',
        '/v1/namespaces',
        'authentication.k8s.io/v1/tokenreviews',
        'authorization.k8s.io/v1/subjectaccessreviews',
        'coordination.k8s.io/v1/leases',
        'apps/v1/deployments',
      ]) {
        expect(s.has(key), `${key} in 1.${at}`).toBe(true);
      }
    }
  });
});
