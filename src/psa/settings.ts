/**
 * The PodSecurity settings of a run from the command line: `--pod-security-config <file>` (the
 * cluster's defaults and exemptions, ./config-file.ts) and `--namespace <name>` (the namespace of
 * objects that name none, as kubectl's; `default` without it).
 */
import { UsageError } from '../errors.js';
import { DEFAULT_NAMESPACE, type PodSecuritySettings } from '../model/pod-security.js';
import { DEFAULT_POD_SECURITY_CONFIGURATION } from './config.js';
import { loadPodSecurityConfigFile } from './config-file.js';

/** IsDNS1123Label: what a namespace name must be. */
const NAMESPACE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function checkNamespaceName(name: string, flag: string): string {
  if (name.length > 63 || !NAMESPACE_NAME.test(name)) {
    throw new UsageError(`${flag} "${name}" is not a valid namespace name`, 'a namespace name is at most 63 lower-case letters, digits and -, starting and ending with a letter or digit');
  }
  return name;
}

export function podSecuritySettingsFrom(flags: { readonly podSecurityConfig?: string | undefined; readonly namespace?: string | undefined }): PodSecuritySettings {
  const namespace = flags.namespace?.trim();
  return {
    config: flags.podSecurityConfig === undefined ? DEFAULT_POD_SECURITY_CONFIGURATION : loadPodSecurityConfigFile(flags.podSecurityConfig),
    defaultNamespace: namespace === undefined || namespace === '' ? DEFAULT_NAMESPACE : checkNamespaceName(namespace, '--namespace'),
    defaultNamespaceGiven: namespace !== undefined && namespace !== '',
  };
}
