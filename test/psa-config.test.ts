/**
 * The PodSecurity admission configuration, read as the API server reads it. Each case names the
 * upstream test or code it follows: k8s.io/pod-security-admission admission/api/load/load_test.go
 * (TestLoadFromData), admission/api/validation/validation_test.go, admission/api/v1/defaults.go;
 * k8s.io/apiserver pkg/admission/config.go and config_test.go.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../src/errors.js';
import {
  DEFAULT_POD_SECURITY_CONFIGURATION,
  MAX_REFERENCED_CONFIG_BYTES,
  PodSecurityConfigError,
  readPodSecurityConfiguration,
  type PodSecurityConfiguration,
} from '../src/psa/config.js';
import type { PsaPolicy } from '../src/psa/labels.js';

const PSA_V1 = 'pod-security.admission.config.k8s.io/v1';
const privileged = { level: 'privileged', version: 'latest' } as const;

function policy(enforce: PsaPolicy['enforce'], audit: PsaPolicy['audit'] = privileged, warn: PsaPolicy['warn'] = privileged): PsaPolicy {
  return { enforce, audit, warn };
}

function errorOf(run: () => unknown): PodSecurityConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof PodSecurityConfigError) return error;
    throw error;
  }
  throw new Error('expected a PodSecurityConfigError');
}

describe('a standalone PodSecurityConfiguration', () => {
  const valid: { name: string; cite: string; value: unknown; defaults: PsaPolicy; exemptions?: PodSecurityConfiguration['exemptions'] }[] = [
    {
      name: 'v1alpha1, only enforce set: the rest defaults to privileged/latest',
      cite: 'load_test.go TestLoadFromData "v1alpha1 - json"',
      value: { apiVersion: 'pod-security.admission.config.k8s.io/v1alpha1', kind: 'PodSecurityConfiguration', defaults: { enforce: 'baseline' } },
      defaults: policy({ level: 'baseline', version: 'latest' }),
    },
    {
      name: 'v1beta1, same defaults',
      cite: 'load_test.go TestLoadFromData "v1beta1 - json"',
      value: { apiVersion: 'pod-security.admission.config.k8s.io/v1beta1', kind: 'PodSecurityConfiguration', defaults: { enforce: 'baseline' } },
      defaults: policy({ level: 'baseline', version: 'latest' }),
    },
    {
      name: 'v1 with a pinned version and every exemption list',
      cite: 'load_test.go TestLoadFromData "v1 - yaml"',
      value: {
        apiVersion: PSA_V1,
        kind: 'PodSecurityConfiguration',
        defaults: { enforce: 'baseline', 'enforce-version': 'v1.7' },
        exemptions: { usernames: ['alice', 'bob'], namespaces: ['kube-system'], runtimeClasses: ['special'] },
      },
      defaults: policy({ level: 'baseline', version: { minor: 7 } }),
      exemptions: { usernames: ['alice', 'bob'], namespaces: ['kube-system'], runtimeClasses: ['special'] },
    },
    {
      name: 'empty strings are defaulted, not errors',
      cite: 'v1/defaults.go SetDefaults_PodSecurityDefaults (len(obj.Warn) == 0); validation_test.go case 2 validates the undefaulted object',
      value: { apiVersion: PSA_V1, kind: 'PodSecurityConfiguration', defaults: { warn: '', 'warn-version': '', audit: 'restricted', 'audit-version': 'v1.25' } },
      defaults: policy(privileged, { level: 'restricted', version: { minor: 25 } }),
    },
    {
      name: 'null sections and fields decode as zero values',
      cite: 'encoding/json: null leaves a struct, string or slice at its zero value',
      value: { apiVersion: PSA_V1, kind: 'PodSecurityConfiguration', defaults: { enforce: null }, exemptions: null },
      defaults: policy(privileged),
    },
    {
      name: 'every mode and version set',
      cite: 'validation_test.go case 1 (privileged/v1.22, baseline/v1.25, restricted/latest)',
      value: {
        apiVersion: PSA_V1,
        kind: 'PodSecurityConfiguration',
        defaults: { enforce: 'privileged', 'enforce-version': 'v1.22', audit: 'baseline', 'audit-version': 'v1.25', warn: 'restricted', 'warn-version': 'latest' },
      },
      defaults: policy({ level: 'privileged', version: { minor: 22 } }, { level: 'baseline', version: { minor: 25 } }, { level: 'restricted', version: 'latest' }),
    },
  ];
  it.each(valid)('$name ($cite)', ({ value, defaults, exemptions }) => {
    const config = readPodSecurityConfiguration(value, 'psa.yaml');
    expect(config.defaults).toEqual(defaults);
    expect(config.exemptions).toEqual(exemptions ?? { usernames: [], namespaces: [], runtimeClasses: [] });
    expect(config.origin).toEqual({ kind: 'standalone', file: 'psa.yaml', apiVersion: (value as { apiVersion: string }).apiVersion });
  });

  const tooLong = 'test'.repeat(16);
  const invalid: { name: string; cite: string; value: unknown; problems: [string, string][] }[] = [
    {
      name: 'missing apiVersion',
      cite: 'load_test.go "missing apiVersion"',
      value: { kind: 'PodSecurityConfiguration' },
      problems: [['apiVersion', 'apiVersion: Required value']],
    },
    {
      name: 'missing kind',
      cite: 'load_test.go "missing kind"',
      value: { apiVersion: 'pod-security.admission.config.k8s.io/v1alpha1' },
      problems: [['kind', 'kind: Required value']],
    },
    {
      name: 'unknown group',
      cite: 'load_test.go "unknown group"',
      value: { apiVersion: 'apps/v1alpha1', kind: 'PodSecurityConfiguration' },
      problems: [['apiVersion', 'apiVersion: Unsupported value: "apps/v1alpha1"']],
    },
    {
      name: 'unknown version',
      cite: 'load_test.go "unknown version"',
      value: { apiVersion: 'pod-security.admission.config.k8s.io/v99', kind: 'PodSecurityConfiguration' },
      problems: [['apiVersion', 'apiVersion: Unsupported value: "pod-security.admission.config.k8s.io/v99"']],
    },
    {
      name: 'unknown kind',
      cite: 'load_test.go "unknown kind"',
      value: { apiVersion: PSA_V1, kind: 'SomeConfiguration' },
      problems: [['kind', 'kind: Unsupported value: "SomeConfiguration"']],
    },
    {
      name: 'unknown field, with a suggestion',
      cite: 'load_test.go "unknown field" (strict decoding)',
      value: { apiVersion: PSA_V1, kind: 'PodSecurityConfiguration', deflaults: { enforce: 'baseline' } },
      problems: [['deflaults', 'deflaults: unknown field (did you mean "defaults"?)']],
    },
    {
      name: 'field names are case-sensitive',
      cite: 'scheme.go serializer.EnableStrict (case-sensitive strict decoding)',
      value: { apiVersion: PSA_V1, kind: 'PodSecurityConfiguration', exemptions: { runtimeclasses: ['gvisor'] }, defaults: { enforce_version: 'v1.30' } },
      problems: [
        ['defaults.enforce_version', 'defaults.enforce_version: unknown field (did you mean "enforce-version"?)'],
        ['exemptions.runtimeclasses', 'exemptions.runtimeclasses: unknown field (did you mean "runtimeClasses"?)'],
      ],
    },
    {
      name: 'metadata is not a field of the type (TypeMeta only)',
      cite: 'v1/types.go PodSecurityConfiguration embeds metav1.TypeMeta, no ObjectMeta',
      value: { apiVersion: PSA_V1, kind: 'PodSecurityConfiguration', metadata: { name: 'psa' } },
      problems: [['metadata', 'metadata: unknown field']],
    },
    {
      name: 'a level that is not a string cannot be decoded',
      cite: 'v1/types.go Enforce string',
      value: { apiVersion: PSA_V1, kind: 'PodSecurityConfiguration', defaults: { 'enforce-version': 1.25 }, exemptions: { namespaces: 'kube-system' } },
      problems: [
        ['defaults.enforce-version', 'defaults.enforce-version: must be a string, not the number 1.25'],
        ['exemptions.namespaces', 'exemptions.namespaces: must be a list of strings, not the string "kube-system"'],
      ],
    },
    {
      name: 'invalid levels and versions, in the validation order',
      cite: 'validation_test.go case 2 ("baslein", "v.122", "lorum", "ipsum"); order enforce, warn, audit',
      value: { apiVersion: PSA_V1, kind: 'PodSecurityConfiguration', defaults: { enforce: 'baslein', 'enforce-version': 'v.122', audit: 'lorum', 'audit-version': 'ipsum', warn: 'Baseline', 'warn-version': '1.30' } },
      problems: [
        ['defaults.enforce', 'defaults.enforce: Invalid value: "baslein": must be one of privileged, baseline, restricted'],
        ['defaults.enforce-version', 'defaults.enforce-version: Invalid value: "v.122": must be "latest" or "v1.x"'],
        ['defaults.warn', 'defaults.warn: Invalid value: "Baseline": must be one of privileged, baseline, restricted'],
        ['defaults.warn-version', 'defaults.warn-version: Invalid value: "1.30": must be "latest" or "v1.x"'],
        ['defaults.audit', 'defaults.audit: Invalid value: "lorum"'],
        ['defaults.audit-version', 'defaults.audit-version: Invalid value: "ipsum"'],
      ],
    },
    {
      name: 'exemptions: invalid names and duplicates',
      cite: 'validation_test.go case 1 (empty, "_&$%#", "TEST", 64 characters, duplicate "testing")',
      value: {
        apiVersion: PSA_V1,
        kind: 'PodSecurityConfiguration',
        exemptions: {
          namespaces: ['', '_&$%#', 'TEST', tooLong, 'testing', 'testing', 'kube.system'],
          runtimeClasses: ['', '_&$%#', 'TEST', 'testing', 'testing', 'runc.v2'],
          usernames: ['', 'testing', 'testing'],
        },
      },
      problems: [
        ['exemptions.namespaces[0]', 'exemptions.namespaces[0]: Invalid value: "": a lowercase RFC 1123 label must consist of'],
        ['exemptions.namespaces[1]', 'exemptions.namespaces[1]: Invalid value: "_&$%#": a lowercase RFC 1123 label'],
        ['exemptions.namespaces[2]', 'exemptions.namespaces[2]: Invalid value: "TEST": a lowercase RFC 1123 label'],
        ['exemptions.namespaces[3]', `exemptions.namespaces[3]: Invalid value: "${tooLong}": must be no more than 63 characters`],
        ['exemptions.namespaces[5]', 'exemptions.namespaces[5]: Duplicate value: "testing"'],
        ['exemptions.namespaces[6]', 'exemptions.namespaces[6]: Invalid value: "kube.system": must not contain dots'],
        ['exemptions.runtimeClasses[0]', 'exemptions.runtimeClasses[0]: Invalid value: "": a lowercase RFC 1123 subdomain'],
        ['exemptions.runtimeClasses[1]', 'exemptions.runtimeClasses[1]: Invalid value: "_&$%#"'],
        ['exemptions.runtimeClasses[2]', 'exemptions.runtimeClasses[2]: Invalid value: "TEST"'],
        ['exemptions.runtimeClasses[4]', 'exemptions.runtimeClasses[4]: Duplicate value: "testing"'],
        ['exemptions.usernames[0]', 'exemptions.usernames[0]: Invalid value: "": username must not be empty'],
        ['exemptions.usernames[2]', 'exemptions.usernames[2]: Duplicate value: "testing"'],
      ],
    },
    {
      name: 'a null list item decodes as "" and is then invalid',
      cite: 'encoding/json null into a string; validateUsernames',
      value: { apiVersion: PSA_V1, kind: 'PodSecurityConfiguration', exemptions: { usernames: [null] } },
      problems: [['exemptions.usernames[0]', 'exemptions.usernames[0]: Invalid value: "": username must not be empty']],
    },
    {
      name: 'an unknown key with a line break stays on one line',
      cite: 'strict decoding reports the key; UserError messages are one line',
      value: { apiVersion: PSA_V1, kind: 'PodSecurityConfiguration', defaults: { 'enforce\nwarn': 'baseline' } },
      problems: [['defaults.enforce\nwarn', 'defaults["enforce\\nwarn"]: unknown field']],
    },
    {
      name: 'not a mapping',
      cite: 'runtime.Decode of a list',
      value: ['PodSecurityConfiguration'],
      problems: [['', 'must be a PodSecurityConfiguration mapping, not a list']],
    },
    {
      name: 'a kind this reader does not know',
      cite: 'ReadAdmissionConfiguration / LoadFromData accept only their kinds',
      value: { apiVersion: 'apps/v1', kind: 'Deployment' },
      problems: [['kind', 'kind: Unsupported value: "Deployment": must be "AdmissionConfiguration" or "PodSecurityConfiguration"']],
    },
  ];
  it.each(invalid)('$name ($cite)', ({ value, problems }) => {
    const error = errorOf(() => readPodSecurityConfiguration(value, 'psa.yaml'));
    expect(error).toBeInstanceOf(UserError);
    expect(error.reason).toBe('invalid');
    expect(error.problems.map((problem) => problem.path.map((s) => (typeof s === 'number' ? `[${s}]` : s)).join('.').replace(/\.\[/g, '['))).toEqual(problems.map(([path]) => path));
    error.problems.forEach((problem, index) => {
      expect(problem.file).toBe('psa.yaml');
      expect(problem.message.startsWith(problems[index]![1])).toBe(true);
    });
    expect(error.message.split('\n')).toHaveLength(1);
  });
});

describe('a PodSecurityConfiguration inside an AdmissionConfiguration', () => {
  const embedded = { apiVersion: PSA_V1, kind: 'PodSecurityConfiguration', defaults: { enforce: 'restricted', 'enforce-version': 'v1.30' }, exemptions: { namespaces: ['kube-system'] } };
  const admission = (plugins: unknown, apiVersion = 'apiserver.config.k8s.io/v1'): unknown => ({ apiVersion, kind: 'AdmissionConfiguration', plugins });

  it.each([
    ['apiserver.config.k8s.io/v1', 'config_test.go TestEmbeddedConfiguration "v1 versioned configuration"'],
    ['apiserver.k8s.io/v1alpha1', 'config_test.go TestEmbeddedConfiguration "v1alpha1 versioned configuration"'],
  ])('embedded under %s (%s)', (apiVersion) => {
    const config = readPodSecurityConfiguration(admission([{ name: 'ResourceQuota' }, { name: 'PodSecurity', configuration: embedded }], apiVersion), 'admission.yaml');
    expect(config.defaults.enforce).toEqual({ level: 'restricted', version: { minor: 30 } });
    expect(config.exemptions.namespaces).toEqual(['kube-system']);
    expect(config.origin).toEqual({ kind: 'admission-configuration', file: 'admission.yaml', plugin: 1, via: 'configuration', apiVersion: PSA_V1 });
  });

  it('the first entry named PodSecurity is the one read (config.go ConfigFor returns the first match)', () => {
    const second = { ...embedded, defaults: { enforce: 'baseline' } };
    const config = readPodSecurityConfiguration(admission([{ name: 'PodSecurity', configuration: embedded }, { name: 'PodSecurity', configuration: second }]), 'admission.yaml');
    expect(config.defaults.enforce.level).toBe('restricted');
  });

  const defaulted: { name: string; cite: string; value: unknown; plugin: number | undefined }[] = [
    { name: 'no PodSecurity entry', cite: 'config.go ConfigFor: no match, nil reader; load.LoadFromReader(nil) → defaults', value: admission([{ name: 'EventRateLimit', path: 'erl.yaml' }]), plugin: undefined },
    { name: 'no plugins at all', cite: 'v1/types.go Plugins +optional', value: admission(null), plugin: undefined },
    { name: 'an entry with neither configuration nor path', cite: 'config.go GetAdmissionPluginConfigurationFor: nothing nested, no path → nil reader', value: admission([{ name: 'PodSecurity' }]), plugin: 0 },
    { name: 'configuration: null is no configuration', cite: 'encoding/json: null into *runtime.Unknown leaves it nil', value: admission([{ name: 'PodSecurity', configuration: null }]), plugin: 0 },
    { name: 'plugin names are exact', cite: 'config.go ConfigFor compares pluginName != pluginCfg.Name', value: admission([{ name: 'podsecurity', configuration: embedded }]), plugin: undefined },
  ];
  it.each(defaulted)('$name: the plugin runs with its defaults ($cite)', ({ value, plugin }) => {
    const config = readPodSecurityConfiguration(value, 'admission.yaml');
    expect(config.defaults).toEqual(DEFAULT_POD_SECURITY_CONFIGURATION.defaults);
    expect(config.exemptions).toEqual(DEFAULT_POD_SECURITY_CONFIGURATION.exemptions);
    expect(config.origin).toEqual({ kind: 'admission-configuration', file: 'admission.yaml', plugin, via: 'none' });
  });

  it.each([
    {
      name: 'an unknown field in a plugin entry',
      cite: 'config_test.go "unknown field configuration error"',
      value: admission([{ foo: 'bar', name: 'ImagePolicyWebhook', path: 'image-policy-webhook.json' }, { name: 'ResourceQuota' }]),
      problems: [['plugins', 0, 'foo']],
      message: 'plugins[0].foo: unknown field',
    },
    {
      name: 'AdmissionConfiguration is not served in apiserver.k8s.io/v1beta1',
      cite: 'apiserver pkg/apis/apiserver/v1beta1/register.go registers no AdmissionConfiguration',
      value: admission([], 'apiserver.k8s.io/v1beta1'),
      problems: [['apiVersion']],
      message: 'apiVersion: Unsupported value: "apiserver.k8s.io/v1beta1"',
    },
    {
      name: 'an embedded configuration without apiVersion and kind',
      cite: 'load.go LoadFromData: runtime.Decode of "{}" ("Object \'Kind\' is missing")',
      value: admission([{ name: 'PodSecurity', configuration: {} }]),
      problems: [
        ['plugins', 0, 'configuration', 'apiVersion'],
        ['plugins', 0, 'configuration', 'kind'],
      ],
      message: 'plugins[0].configuration.apiVersion: Required value',
    },
    {
      name: 'an embedded configuration of another kind',
      cite: 'config_test.go "v1 legacy configuration" passes {"foo":"bar"} through; the PodSecurity decoder rejects it',
      value: admission([{ name: 'PodSecurity', configuration: { apiVersion: PSA_V1, kind: 'PodSecurityConfiguration', foo: 'bar' } }]),
      problems: [['plugins', 0, 'configuration', 'foo']],
      message: 'plugins[0].configuration.foo: unknown field',
    },
    {
      name: 'validation errors carry the path from the admission configuration',
      cite: 'validation.go validateLevel',
      value: admission([{ name: 'PodSecurity', configuration: { ...embedded, defaults: { audit: 'strict' } } }]),
      problems: [['plugins', 0, 'configuration', 'defaults', 'audit']],
      message: 'plugins[0].configuration.defaults.audit: Invalid value: "strict": must be one of privileged, baseline, restricted',
    },
    {
      name: 'plugins must be a list',
      cite: 'v1/types.go Plugins []AdmissionPluginConfiguration',
      value: admission({ name: 'PodSecurity' }),
      problems: [['plugins']],
      message: 'plugins: must be a list, not a mapping',
    },
  ])('$name ($cite)', ({ value, problems, message }) => {
    const error = errorOf(() => readPodSecurityConfiguration(value, 'admission.yaml'));
    expect(error.reason).toBe('invalid');
    expect(error.problems.map((problem) => problem.path)).toEqual(problems);
    expect(error.problems[0]!.message.startsWith(message)).toBe(true);
    expect(error.problems.every((problem) => problem.file === 'admission.yaml' && problem.line === undefined)).toBe(true);
  });
});

describe('a PodSecurity configuration named by path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'psa-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'conf'));
  const admissionFile = join(dir, 'conf', 'admission.yaml');
  const write = (name: string, text: string | Uint8Array): string => {
    const path = join(dir, 'conf', name);
    writeFileSync(path, text);
    return path;
  };
  const admission = (path: string): unknown => ({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AdmissionConfiguration', plugins: [{ name: 'PodSecurity', path }] });

  it('a relative path is read from the admission configuration\'s folder, as YAML (config.go makeAbs; load_test.go "v1 - yaml")', () => {
    write('psa.yaml', `apiVersion: ${PSA_V1}\nkind: PodSecurityConfiguration\ndefaults:\n  enforce: baseline\n  enforce-version: v1.7\nexemptions:\n  usernames: ["alice","bob"]\n`);
    const config = readPodSecurityConfiguration(admission('psa.yaml'), admissionFile);
    expect(config.defaults.enforce).toEqual({ level: 'baseline', version: { minor: 7 } });
    expect(config.exemptions.usernames).toEqual(['alice', 'bob']);
    expect(config.origin).toEqual({ kind: 'admission-configuration', file: admissionFile, plugin: 0, via: 'path', referencedFile: join(dir, 'conf', 'psa.yaml'), apiVersion: PSA_V1 });
  });

  it('an absolute path is used as is (config_test.go "v1 configuration - abspath"), also through a symbolic link to a regular file', () => {
    const target = write('target.json', JSON.stringify({ apiVersion: PSA_V1, kind: 'PodSecurityConfiguration', defaults: { warn: 'restricted' } }));
    symlinkSync(target, join(dir, 'linked.json'));
    const config = readPodSecurityConfiguration(admission(join(dir, 'linked.json')), admissionFile);
    expect(config.defaults.warn.level).toBe('restricted');
  });

  it('embedded configuration wins over path (v1/types.go: "If present, it will be used instead of the path")', () => {
    const value = { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AdmissionConfiguration', plugins: [{ name: 'PodSecurity', path: 'does-not-exist.yaml', configuration: { apiVersion: PSA_V1, kind: 'PodSecurityConfiguration' } }] };
    expect(readPodSecurityConfiguration(value, admissionFile).origin).toMatchObject({ via: 'configuration' });
  });

  it('an empty file means the defaults (load.go LoadFromData: len(data) == 0; load_test.go "empty file")', () => {
    write('empty.yaml', '');
    const config = readPodSecurityConfiguration(admission('empty.yaml'), admissionFile);
    expect(config.defaults).toEqual(DEFAULT_POD_SECURITY_CONFIGURATION.defaults);
    expect(config.origin).toMatchObject({ via: 'path', referencedFile: join(dir, 'conf', 'empty.yaml') });
    expect(config.origin).not.toHaveProperty('apiVersion');
  });

  it('a file with only a comment is not empty: it decodes as null, which has no kind (runtime.Decode)', () => {
    write('comment.yaml', '# nothing yet\n');
    const error = errorOf(() => readPodSecurityConfiguration(admission('comment.yaml'), admissionFile));
    expect(error.problems[0]!.message).toContain('must be a PodSecurityConfiguration mapping, not null');
  });

  it('only the first YAML document is read (sigs.k8s.io/yaml Unmarshal parses one document)', () => {
    write('two.yaml', `apiVersion: ${PSA_V1}\nkind: PodSecurityConfiguration\ndefaults: {enforce: baseline}\n---\nkind: [broken\n`);
    expect(readPodSecurityConfiguration(admission('two.yaml'), admissionFile).defaults.enforce.level).toBe('baseline');
  });

  it('errors in the referenced file name that file with line and column', () => {
    write('bad.yaml', `apiVersion: ${PSA_V1}\nkind: PodSecurityConfiguration\ndefaults:\n  enforce: baseline\n  audit: strict\n`);
    const error = errorOf(() => readPodSecurityConfiguration(admission('bad.yaml'), admissionFile));
    expect(error.problems).toEqual([
      { file: join(dir, 'conf', 'bad.yaml'), path: ['defaults', 'audit'], message: 'defaults.audit: Invalid value: "strict": must be one of privileged, baseline, restricted', line: 5, column: 10 },
    ]);
    expect(error.message).toBe(`${join(dir, 'conf', 'bad.yaml')}:5:10: defaults.audit: Invalid value: "strict": must be one of privileged, baseline, restricted`);
  });

  it('YAML 1.1 scalars: an unquoted `no` is a boolean, not a name (sigs.k8s.io/yaml reads YAML 1.1)', () => {
    write('bool.yaml', `apiVersion: ${PSA_V1}\nkind: PodSecurityConfiguration\nexemptions:\n  namespaces:\n    - no\n`);
    const error = errorOf(() => readPodSecurityConfiguration(admission('bool.yaml'), admissionFile));
    expect(error.problems[0]).toMatchObject({ path: ['exemptions', 'namespaces', 0], message: 'exemptions.namespaces[0]: must be a string, not the boolean false', line: 5, column: 7 });
  });

  it('a YAML syntax error is reported at its position; duplicate keys are errors (strict decoding)', () => {
    write('dup.yaml', `apiVersion: ${PSA_V1}\nkind: PodSecurityConfiguration\nkind: PodSecurityConfiguration\n`);
    const error = errorOf(() => readPodSecurityConfiguration(admission('dup.yaml'), admissionFile));
    expect(error.reason).toBe('invalid');
    expect(error.problems[0]).toMatchObject({ file: join(dir, 'conf', 'dup.yaml'), line: 3, column: 1 });
  });

  it('a file that is not UTF-8 is invalid', () => {
    write('latin1.yaml', new Uint8Array([0x6b, 0x69, 0x6e, 0x64, 0x3a, 0x20, 0xe9, 0x0a]));
    expect(errorOf(() => readPodSecurityConfiguration(admission('latin1.yaml'), admissionFile)).problems[0]!.message).toBe('the file is not UTF-8 text');
  });

  it.each([
    ['a missing file', () => join(dir, 'conf', 'missing.yaml'), 'ENOENT'],
    ['a folder', () => join(dir, 'conf'), 'not a regular file'],
    ['a device', () => '/dev/null', 'not a regular file'],
    ['a file over the size limit', () => write('huge.yaml', 'a'.repeat(MAX_REFERENCED_CONFIG_BYTES + 1)), 'larger than 1024 KiB'],
  ])('%s is reported as unreadable, at the entry\'s path field', (_name, path, why) => {
    const error = errorOf(() => readPodSecurityConfiguration(admission(path()), admissionFile));
    expect(error.reason).toBe('unreadable');
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatchObject({ file: admissionFile, path: ['plugins', 0, 'path'] });
    expect(error.problems[0]!.message).toContain(why);
  });

  it('a relative path cannot be resolved from standard input', () => {
    const error = errorOf(() => readPodSecurityConfiguration(admission('psa.yaml'), '<stdin>'));
    expect(error.reason).toBe('unreadable');
    expect(error.problems[0]!.message).toContain('standard input');
  });
});
