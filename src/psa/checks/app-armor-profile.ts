/**
 * upstream policy/check_appArmorProfile.go (baseline): AppArmor profile types other than
 * RuntimeDefault and Localhost, on the pod, on containers or in the deprecated
 * `container.apparmor.security.beta.kubernetes.io/*` annotations (allowed there: empty,
 * `runtime/default`, `localhost/*`). Path: the pod's field, else the first container's, else
 * the first annotation in the detail's (sorted) order.
 */
import type { FieldPath } from '../../field-path.js';
import { compareGoStrings, goQuote, joinQuote, pluralize, sortedSet } from './go-text.js';
import type { PodView } from './model.js';
import type { Check, CheckFailure } from './types.js';
import { allContainers } from './visit.js';
import { containersPhrase } from './wording.js';

const ANNOTATION_KEY_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

function allowedAnnotationValue(profile: string): boolean {
  return profile.length === 0 || profile === 'runtime/default' || profile.startsWith('localhost/');
}

function allowedProfileType(type: string): boolean {
  return type === 'RuntimeDefault' || type === 'Localhost';
}

export function appArmorProfileV1Dot0(pod: PodView): CheckFailure | undefined {
  const badSetters: string[] = [];
  const badValues: string[] = [];
  const paths: FieldPath[] = [];

  const podProfile = pod.spec.securityContext?.appArmorProfile;
  if (podProfile !== undefined && !allowedProfileType(podProfile.type)) {
    badSetters.push('pod');
    badValues.push(podProfile.type);
    paths.push(podProfile.path);
  }

  const badContainers: string[] = [];
  for (const container of allContainers(pod.spec)) {
    const profile = container.securityContext?.appArmorProfile;
    if (profile !== undefined && !allowedProfileType(profile.type)) {
      badContainers.push(container.name);
      badValues.push(profile.type);
      paths.push(profile.path);
    }
  }
  if (badContainers.length > 0) badSetters.push(containersPhrase(badContainers));

  const forbiddenAnnotations: { text: string; key: string }[] = [];
  for (const [key, value] of pod.annotations) {
    if (key.startsWith(ANNOTATION_KEY_PREFIX) && !allowedAnnotationValue(value)) {
      forbiddenAnnotations.push({ text: `${key}=${goQuote(value)}`, key });
    }
  }
  const badValueList = sortedSet(badValues);
  if (forbiddenAnnotations.length > 0) {
    forbiddenAnnotations.sort((a, b) => compareGoStrings(a.text, b.text));
    badValueList.push(...forbiddenAnnotations.map((annotation) => annotation.text));
    badSetters.push(pluralize('annotation', 'annotations', forbiddenAnnotations.length));
    paths.push(['metadata', 'annotations', forbiddenAnnotations[0]!.key]);
  }

  const [path] = paths;
  if (path === undefined) return undefined;
  return {
    reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', badValueList.length),
    detail: `${badSetters.join(' and ')} must not set AppArmor profile type to ${joinQuote(badValueList)}`,
    path,
  };
}

export const checkAppArmorProfile: Check = {
  id: 'appArmorProfile',
  level: 'baseline',
  source: 'policy/check_appArmorProfile.go',
  versions: [{ minimumVersion: 0, checkPod: appArmorProfileV1Dot0 }],
};
