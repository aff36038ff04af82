/**
 * upstream policy/check_seLinuxOptions.go (baseline): seLinuxOptions.type only from an allowed
 * list (which gained container_engine_t in v1.31), and no user or role. Path: the first bad
 * field (type, user, role) of the pod's options, else of the first container named.
 */
import type { FieldPath } from '../../field-path.js';
import { joinQuote, pluralize, sortedSet } from './go-text.js';
import type { PodView, SELinuxOptionsView } from './model.js';
import type { Check, CheckFailure } from './types.js';
import { allContainers } from './visit.js';
import { containersPhrase } from './wording.js';

const SELINUX_ALLOWED_TYPES_V1_DOT_0: ReadonlySet<string> = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
const SELINUX_ALLOWED_TYPES_V1_DOT_31: ReadonlySet<string> = new Set([...SELINUX_ALLOWED_TYPES_V1_DOT_0, 'container_engine_t']);

/** The fields of one seLinuxOptions that are not allowed, in the order upstream tests them. */
function badFields(options: SELinuxOptionsView, allowedTypes: ReadonlySet<string>): ('type' | 'user' | 'role')[] {
  const fields: ('type' | 'user' | 'role')[] = [];
  if (!allowedTypes.has(options.type)) fields.push('type');
  if (options.user.length > 0) fields.push('user');
  if (options.role.length > 0) fields.push('role');
  return fields;
}

function seLinuxOptions(pod: PodView, allowedTypes: ReadonlySet<string>): CheckFailure | undefined {
  const badSetters: string[] = [];
  const badTypes: string[] = [];
  let setUser = false;
  let setRole = false;
  const paths: FieldPath[] = [];
  /** Records what is wrong with one seLinuxOptions; true when something is. */
  const inspect = (options: SELinuxOptionsView, path: FieldPath): boolean => {
    const fields = badFields(options, allowedTypes);
    if (fields.includes('type')) badTypes.push(options.type);
    setUser ||= fields.includes('user');
    setRole ||= fields.includes('role');
    if (fields.length > 0) paths.push([...path, 'seLinuxOptions', fields[0]!]);
    return fields.length > 0;
  };

  const podOptions = pod.spec.securityContext?.seLinuxOptions;
  if (podOptions !== undefined && inspect(podOptions, ['spec', 'securityContext'])) badSetters.push('pod');
  const badContainers: string[] = [];
  for (const container of allContainers(pod.spec)) {
    const options = container.securityContext?.seLinuxOptions;
    if (options !== undefined && inspect(options, [...container.path, 'securityContext'])) badContainers.push(container.name);
  }
  if (badContainers.length > 0) badSetters.push(containersPhrase(badContainers));

  const [path] = paths;
  if (path === undefined) return undefined;
  const badData: string[] = [];
  const types = sortedSet(badTypes);
  if (types.length > 0) badData.push(`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`);
  if (setUser) badData.push('user may not be set');
  if (setRole) badData.push('role may not be set');
  return {
    reason: 'seLinuxOptions',
    detail: `${badSetters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${badData.join('; ')}`,
    path,
  };
}

export function seLinuxOptionsV1Dot0(pod: PodView): CheckFailure | undefined {
  return seLinuxOptions(pod, SELINUX_ALLOWED_TYPES_V1_DOT_0);
}

export function seLinuxOptionsV1Dot31(pod: PodView): CheckFailure | undefined {
  return seLinuxOptions(pod, SELINUX_ALLOWED_TYPES_V1_DOT_31);
}

export const checkSELinuxOptions: Check = {
  id: 'seLinuxOptions',
  level: 'baseline',
  source: 'policy/check_seLinuxOptions.go',
  versions: [
    { minimumVersion: 0, checkPod: seLinuxOptionsV1Dot0 },
    { minimumVersion: 31, checkPod: seLinuxOptionsV1Dot31 },
  ],
};
