/**
 * Kubernetes' CEL libraries (k8s.io/apiserver pkg/cel/library, read at kubernetes/apiserver
 * v0.35.0 unless a library says otherwise), and the JSON Patch escape function of mutation
 * expressions.
 */
import type { LibraryData } from './library.js';
import { templated } from './library.js';

export const URLS: LibraryData = {
  source: 'k8s.io/apiserver pkg/cel/library/urls.go',
  types: ['kubernetes.URL'],
  functions: {
    url: ['string_to_url: (string) -> kubernetes.URL'],
    getScheme: ['url_get_scheme: kubernetes.URL.() -> string'],
    getHost: ['url_get_host: kubernetes.URL.() -> string'],
    getHostname: ['url_get_hostname: kubernetes.URL.() -> string'],
    getPort: ['url_get_port: kubernetes.URL.() -> string'],
    getEscapedPath: ['url_get_escaped_path: kubernetes.URL.() -> string'],
    getQuery: ['url_get_query: kubernetes.URL.() -> map(string, list(string))'],
    isURL: ['is_url_string: (string) -> bool'],
  },
};

export const REGEX: LibraryData = {
  source: 'k8s.io/apiserver pkg/cel/library/regex.go',
  functions: {
    find: ['string_find_string: string.(string) -> string'],
    findAll: ['string_find_all_string: string.(string) -> list(string)', 'string_find_all_string_int: string.(string, int) -> list(string)'],
  },
};

const SUMMABLE = ['int', 'uint', 'double', 'duration'];
const COMPARABLE = ['int', 'uint', 'double', 'bool', 'duration', 'timestamp', 'string', 'bytes'];

const KUBERNETES_LISTS_V0 = {
  isSorted: templated(COMPARABLE, (t) => `list_${t}_is_sorted_bool: list(${t}).() -> bool`),
  sum: templated(SUMMABLE, (t) => `list_${t}_sum_${t}: list(${t}).() -> ${t}`),
  max: templated(COMPARABLE, (t) => `list_${t}_max_${t}: list(${t}).() -> ${t}`),
  min: templated(COMPARABLE, (t) => `list_${t}_min_${t}: list(${t}).() -> ${t}`),
  indexOf: ['list_a_index_of_int: list(A).(A) -> int'],
  lastIndexOf: ['list_a_last_index_of_int: list(A).(A) -> int'],
};

export const KUBERNETES_LISTS_VERSION_0: LibraryData = {
  source: 'k8s.io/apiserver pkg/cel/library/lists.go (ListsVersion(0))',
  functions: KUBERNETES_LISTS_V0,
};

export const KUBERNETES_LISTS_VERSION_1: LibraryData = {
  source: 'kubernetes/apiserver master (v0.37) pkg/cel/library/lists.go (ListsVersion(1): includes)',
  functions: { ...KUBERNETES_LISTS_V0, includes: ['list_includes_dyn_dyn: dyn.(dyn) -> bool'] },
};

const AUTHORIZER = 'kubernetes.authorization.Authorizer';
const PATH_CHECK = 'kubernetes.authorization.PathCheck';
const GROUP_CHECK = 'kubernetes.authorization.GroupCheck';
const RESOURCE_CHECK = 'kubernetes.authorization.ResourceCheck';
const DECISION = 'kubernetes.authorization.Decision';

export const AUTHZ: LibraryData = {
  source: 'k8s.io/apiserver pkg/cel/library/authz.go (authzLib)',
  types: [AUTHORIZER, PATH_CHECK, GROUP_CHECK, RESOURCE_CHECK, DECISION],
  functions: {
    path: [`authorizer_path: ${AUTHORIZER}.(string) -> ${PATH_CHECK}`],
    group: [`authorizer_group: ${AUTHORIZER}.(string) -> ${GROUP_CHECK}`],
    serviceAccount: [`authorizer_serviceaccount: ${AUTHORIZER}.(string, string) -> ${AUTHORIZER}`],
    resource: [`groupcheck_resource: ${GROUP_CHECK}.(string) -> ${RESOURCE_CHECK}`],
    subresource: [`resourcecheck_subresource: ${RESOURCE_CHECK}.(string) -> ${RESOURCE_CHECK}`],
    namespace: [`resourcecheck_namespace: ${RESOURCE_CHECK}.(string) -> ${RESOURCE_CHECK}`],
    name: [`resourcecheck_name: ${RESOURCE_CHECK}.(string) -> ${RESOURCE_CHECK}`],
    check: [`pathcheck_check: ${PATH_CHECK}.(string) -> ${DECISION}`, `resourcecheck_check: ${RESOURCE_CHECK}.(string) -> ${DECISION}`],
    errored: [`decision_errored: ${DECISION}.() -> bool`],
    error: [`decision_error: ${DECISION}.() -> string`],
    allowed: [`decision_allowed: ${DECISION}.() -> bool`],
    reason: [`decision_reason: ${DECISION}.() -> string`],
  },
};

export const AUTHZ_SELECTORS: LibraryData = {
  source: 'k8s.io/apiserver pkg/cel/library/authz.go (authzSelectorsLib)',
  types: [RESOURCE_CHECK],
  functions: {
    fieldSelector: [`authorizer_fieldselector: ${RESOURCE_CHECK}.(string) -> ${RESOURCE_CHECK}`],
    labelSelector: [`authorizer_labelselector: ${RESOURCE_CHECK}.(string) -> ${RESOURCE_CHECK}`],
  },
};

const QUANTITY = 'kubernetes.Quantity';

export const QUANTITY_LIBRARY: LibraryData = {
  source: 'k8s.io/apiserver pkg/cel/library/quantity.go',
  types: [QUANTITY],
  functions: {
    quantity: [`string_to_quantity: (string) -> ${QUANTITY}`],
    isQuantity: ['is_quantity_string: (string) -> bool'],
    // Declared as a global overload (cel.Overload, not MemberOverload): `sign(q)`, not `q.sign()`.
    sign: [`quantity_sign: (${QUANTITY}) -> int`],
    isGreaterThan: [`quantity_is_greater_than: ${QUANTITY}.(${QUANTITY}) -> bool`],
    isLessThan: [`quantity_is_less_than: ${QUANTITY}.(${QUANTITY}) -> bool`],
    compareTo: [`quantity_compare_to: ${QUANTITY}.(${QUANTITY}) -> int`],
    asApproximateFloat: [`quantity_get_float: ${QUANTITY}.() -> double`],
    asInteger: [`quantity_get_int: ${QUANTITY}.() -> int`],
    isInteger: [`quantity_is_integer: ${QUANTITY}.() -> bool`],
    add: [`quantity_add: ${QUANTITY}.(${QUANTITY}) -> ${QUANTITY}`, `quantity_add_int: ${QUANTITY}.(int) -> ${QUANTITY}`],
    sub: [`quantity_sub: ${QUANTITY}.(${QUANTITY}) -> ${QUANTITY}`, `quantity_sub_int: ${QUANTITY}.(int) -> ${QUANTITY}`],
  },
};

export const IP: LibraryData = {
  source: 'k8s.io/apiserver pkg/cel/library/ip.go',
  types: ['net.IP'],
  functions: {
    ip: ['string_to_ip: (string) -> net.IP'],
    family: ['ip_family: net.IP.() -> int'],
    'ip.isCanonical': ['ip_is_canonical: (string) -> bool'],
    isUnspecified: ['ip_is_unspecified: net.IP.() -> bool'],
    isLoopback: ['ip_is_loopback: net.IP.() -> bool'],
    isLinkLocalMulticast: ['ip_is_link_local_multicast: net.IP.() -> bool'],
    isLinkLocalUnicast: ['ip_is_link_local_unicast: net.IP.() -> bool'],
    isGlobalUnicast: ['ip_is_global_unicast: net.IP.() -> bool'],
    isIP: ['is_ip: (string) -> bool'],
    string: ['ip_to_string: (net.IP) -> string'],
  },
};

export const CIDR: LibraryData = {
  source: 'k8s.io/apiserver pkg/cel/library/cidr.go',
  types: ['net.CIDR', 'net.IP'],
  functions: {
    cidr: ['string_to_cidr: (string) -> net.CIDR'],
    containsIP: ['cidr_contains_ip_string: net.CIDR.(string) -> bool', 'cidr_contains_ip_ip: net.CIDR.(net.IP) -> bool'],
    containsCIDR: ['cidr_contains_cidr_string: net.CIDR.(string) -> bool', 'cidr_contains_cidr: net.CIDR.(net.CIDR) -> bool'],
    ip: ['cidr_ip: net.CIDR.() -> net.IP'],
    prefixLength: ['cidr_prefix_length: net.CIDR.() -> int'],
    masked: ['cidr_masked: net.CIDR.() -> net.CIDR'],
    isCIDR: ['is_cidr: (string) -> bool'],
    string: ['cidr_to_string: (net.CIDR) -> string'],
  },
};

const NAMED_FORMATS = [
  'dns1123Label',
  'dns1123Subdomain',
  'dns1035Label',
  'qualifiedName',
  'dns1123LabelPrefix',
  'dns1123SubdomainPrefix',
  'dns1035LabelPrefix',
  'labelValue',
  'uri',
  'uuid',
  'byte',
  'date',
  'datetime',
];

export const FORMAT: LibraryData = {
  source: 'k8s.io/apiserver pkg/cel/library/format.go',
  types: ['kubernetes.NamedFormat'],
  functions: {
    validate: ['format-validate: kubernetes.NamedFormat.(string) -> optional_type(list(string))'],
    'format.named': ['format-named: (string) -> optional_type(kubernetes.NamedFormat)'],
    ...Object.fromEntries(NAMED_FORMATS.map((name) => [`format.${name}`, [`format.${name}: () -> kubernetes.NamedFormat`]])),
  },
};

const SEMVER = 'kubernetes.Semver';

/** SemverVersion(1), the version base.go enables: the (string, bool) normalizing overloads included. */
export const SEMVER_LIBRARY: LibraryData = {
  source: 'k8s.io/apiserver pkg/cel/library/semverlib.go (SemverVersion(1))',
  types: [SEMVER],
  functions: {
    semver: [`string_to_semver: (string) -> ${SEMVER}`, `string_bool_to_semver: (string, bool) -> ${SEMVER}`],
    isSemver: ['is_semver_string: (string) -> bool', 'is_semver_string_bool: (string, bool) -> bool'],
    isGreaterThan: [`semver_is_greater_than: ${SEMVER}.(${SEMVER}) -> bool`],
    isLessThan: [`semver_is_less_than: ${SEMVER}.(${SEMVER}) -> bool`],
    compareTo: [`semver_compare_to: ${SEMVER}.(${SEMVER}) -> int`],
    major: [`semver_major: ${SEMVER}.() -> int`],
    minor: [`semver_minor: ${SEMVER}.() -> int`],
    patch: [`semver_patch: ${SEMVER}.() -> int`],
  },
};

export const JSON_PATCH: LibraryData = {
  source: 'k8s.io/apiserver pkg/cel/library/jsonpatch.go',
  functions: {
    'jsonpatch.escapeKey': ['string_jsonpatch_escapeKey_string: (string) -> string'],
  },
};
