/**
 * Rules reason from Kubernetes semantics and from documented mechanisms any project can use
 * (cert-manager's CA injector annotations, OpenShift's service CA annotation), never from a list
 * of projects: a list of projects is a memory of a test set and says nothing about the next one.
 * Rule and source code must not name the projects of the corpora (tests, docs and corpus files may).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/** Projects of the real-world corpora and other well-known admission webhooks. */
const PROJECTS = [
  'gatekeeper', 'kyverno', 'istio', 'istiod', 'keda', 'metallb', 'knative', 'tekton', 'linkerd', 'dapr', 'kruise', 'volcano',
  'spire', 'elastic', 'hnc', 'kubevirt', 'rancher', 'karmada', 'kuma', 'kubewarden', 'kserve', 'crossplane', 'kubebuilder',
  'ingress-nginx', 'prometheus', 'vault', 'antrea', 'calico', 'cilium', 'kueue', 'katib', 'kubeflow', 'polaris', 'kong',
  'appmesh', 'koordinator', 'jobset', 'cloudnative-pg', 'azure-workload-identity', 'aws-load-balancer',
];

/**
 * Facts about Kubernetes' own objects that happen to contain a project's name, by file: kubeadm's
 * kube-dns Service carries the scrape annotations `prometheus.io/port` and `prometheus.io/scrape`
 * (the system's annotation domains, src/match/kube-system.ts). Only these spellings, only there.
 */
const FACTS: Readonly<Record<string, RegExp>> = {
  'src/match/kube-system.ts': /prometheus\.io\/(?:port|scrape)|'prometheus\.io'/g,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|js|json)$/.test(name) && !name.endsWith('.d.ts') && name !== 'precompiled.js' ? [path] : [];
  });
}

describe('no rule decides by project', () => {
  it('rules/ and src/ name no project', () => {
    const pattern = new RegExp(`(^|[^a-z0-9-])(${PROJECTS.join('|')})([^a-z0-9-]|$)`, 'i');
    const hits: string[] = [];
    for (const file of [...sourceFiles(join(ROOT, 'rules')), ...sourceFiles(join(ROOT, 'src'))]) {
      const facts = FACTS[file.slice(ROOT.length + 1)];
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (pattern.test(facts === undefined ? line : line.replace(facts, ''))) hits.push(`${file.slice(ROOT.length + 1)}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(hits).toEqual([]);
  });
});
