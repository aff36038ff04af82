/**
 * k8s.io/apiserver/pkg/util/webhook/validation.go: ValidateWebhookURL and
 * ValidateWebhookService, with a parser that follows Go's net/url.Parse where it matters here
 * (which inputs fail to parse, and how scheme, user info, host, query and fragment split).
 */
import { formatFieldPath, type FieldPath } from '../field-path.js';
import { dns1123SubdomainErrors } from '../kube/names.js';
import type { ServiceReference } from '../model/types.js';
import { invalid, required, type FieldError } from './field-error.js';

interface GoUrl {
  scheme: string;
  user: string | undefined;
  host: string;
  rawQuery: string;
  fragment: string;
}

function hasInvalidEscape(text: string): boolean {
  return /%(?![0-9A-Fa-f]{2})/.test(text);
}

/** Returns the parsed URL or Go's error text. */
export function parseGoUrl(raw: string): GoUrl | { error: string } {
  const quoted = JSON.stringify(raw);
  if (/[\x00-\x1f\x7f]/.test(raw)) return { error: `parse ${quoted}: net/url: invalid control character in URL` };
  let rest = raw;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
    if (hasInvalidEscape(fragment)) return { error: `parse ${quoted}: invalid URL escape "${fragment.slice(fragment.search(/%(?![0-9A-Fa-f]{2})/), fragment.search(/%(?![0-9A-Fa-f]{2})/) + 3)}"` };
  }
  let scheme = '';
  const schemeMatch = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (schemeMatch) {
    scheme = schemeMatch[1]!.toLowerCase();
    rest = rest.slice(schemeMatch[0].length);
  } else if (rest.startsWith(':')) {
    return { error: `parse ${quoted}: missing protocol scheme` };
  }
  let rawQuery = '';
  const question = rest.indexOf('?');
  if (question >= 0) {
    rawQuery = rest.slice(question + 1);
    rest = rest.slice(0, question);
  }
  let user: string | undefined;
  let host = '';
  if (rest.startsWith('//') && (scheme !== '' || !rest.startsWith('///'))) {
    const authorityEnd = rest.indexOf('/', 2);
    const authority = authorityEnd >= 0 ? rest.slice(2, authorityEnd) : rest.slice(2);
    rest = authorityEnd >= 0 ? rest.slice(authorityEnd) : '';
    const at = authority.lastIndexOf('@');
    if (at >= 0) {
      user = authority.slice(0, at);
      host = authority.slice(at + 1);
    } else {
      host = authority;
    }
    const port = /^(\[[^\]]*\]|[^:]*)(:.*)?$/.exec(host);
    const portPart = port?.[2];
    if (portPart !== undefined && !/^:[0-9]*$/.test(portPart)) return { error: `parse ${quoted}: invalid port ${JSON.stringify(portPart)} after host` };
    if (hasInvalidEscape(host)) return { error: `parse ${quoted}: invalid URL escape` };
  } else if (scheme === '' && /^[^/]*:/.test(rest)) {
    return { error: `parse ${quoted}: first path segment in URL cannot contain colon` };
  }
  if (hasInvalidEscape(rest)) return { error: `parse ${quoted}: invalid URL escape` };
  return { scheme, user, host, rawQuery, fragment };
}

const FORM = '; desired format: https://host[/path]';

export function validateWebhookUrl(at: FieldPath, url: string): FieldError[] {
  const parsed = parseGoUrl(url);
  if ('error' in parsed) return [required(at, `url must be a valid URL: ${parsed.error}${FORM}`)];
  const errors: FieldError[] = [];
  if (parsed.scheme !== 'https') errors.push(invalid(at, parsed.scheme, `'https' is the only allowed URL scheme${FORM}`));
  if (parsed.host.length === 0) errors.push(invalid(at, parsed.host, `host must be specified${FORM}`));
  if (parsed.user !== undefined) errors.push(invalid(at, parsed.user, 'user information is not permitted in the URL'));
  if (parsed.fragment.length > 0) errors.push(invalid(at, parsed.fragment, 'fragments are not permitted in the URL'));
  if (parsed.rawQuery.length > 0) errors.push(invalid(at, parsed.rawQuery, 'query parameters are not permitted in the URL'));
  return errors;
}

/**
 * The API server calls ValidateWebhookService(path, name, namespace, …) against a signature of
 * (path, namespace, name, …), so it reports an empty name under `service.namespace` and the
 * other way round (kubernetes/kubernetes#141353). We point at the field that is really empty
 * and quote the path the API server will print.
 */
export function validateWebhookService(at: FieldPath, service: ServiceReference): FieldError[] {
  const errors: FieldError[] = [];
  const swapped = (real: 'name' | 'namespace', reported: 'name' | 'namespace'): FieldError => ({
    ...required([...at, real]),
    message: `${formatFieldPath([...at, real])}: Required value: the service ${real} is empty (the API server reports this as "${formatFieldPath([...at, reported])}: Required value", kubernetes/kubernetes#141353)`,
  });
  if (!service.name) errors.push(swapped('name', 'namespace'));
  if (!service.namespace) errors.push(swapped('namespace', 'name'));
  const port = service.port ?? 443;
  if (!Number.isInteger(port) || port < 1 || port > 65535) errors.push(invalid([...at, 'port'], port, 'port is not valid: must be between 1 and 65535, inclusive'));
  const path = service.path;
  if (path === undefined || path === null || path === '' || path === '/') return errors;
  const pathAt = [...at, 'path'];
  if (path === '//') return [...errors, invalid(pathAt, path, 'segment[0] may not be empty')];
  if (!path.startsWith('/')) errors.push(invalid(pathAt, path, "must start with a '/'"));
  let toCheck = path.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((segment, i) => {
    if (segment === '') {
      errors.push(invalid(pathAt, path, `segment[${i}] may not be empty`));
      return;
    }
    for (const message of dns1123SubdomainErrors(segment)) errors.push(invalid(pathAt, path, `segment[${i}]: ${message}`));
  });
  return errors;
}
