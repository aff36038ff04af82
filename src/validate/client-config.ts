/**
 * k8s.io/apiserver/pkg/util/webhook/validation.go: ValidateWebhookURL and
 * ValidateWebhookService, with a parser that follows Go's net/url.Parse where it matters here
 * (which inputs fail to parse, and how scheme, user info, host, query and fragment split).
 */
import { formatFieldPath, type FieldPath } from '../field-path.js';
import { dns1123SubdomainErrors } from '../kube/names.js';
import type { ServiceReference } from '../model/types.js';
import { goQuote, invalid, required, type FieldError } from './field-error.js';

interface GoUrl {
  scheme: string;
  user: string | undefined;
  host: string;
  rawQuery: string;
  fragment: string;
}

/**
 * net/url's unescape: the first bad `%` escape (EscapeError) or, in a host, the first ASCII
 * character that may not appear there (InvalidHostError). In a host, %-escapes of ASCII bytes
 * other than %25 are refused too.
 */
function unescapeError(text: string, mode: 'host' | 'other'): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '%') {
      const escape = text.slice(i, i + 3);
      if (!/^%[0-9A-Fa-f]{2}$/.test(escape)) return `invalid URL escape ${goQuote(escape)}`;
      if (mode === 'host' && parseInt(escape[1]!, 16) < 8 && escape !== '%25') return `invalid URL escape ${goQuote(escape)}`;
      i += 2;
    } else if (mode === 'host' && char.charCodeAt(0) < 0x80 && !/[A-Za-z0-9!$&'()*+,;=:[\]<>"\-_.~]/.test(char)) {
      return `invalid character ${goQuote(char)} in host name`;
    }
  }
  return undefined;
}

const validOptionalPort = (port: string): boolean => port === '' || /^:[0-9]*$/.test(port);

/** net/url parseHost: the port after the last ':' (or after ']'), then the host characters. */
function hostError(host: string): string | undefined {
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close < 0) return "missing ']' in host";
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) return `invalid port ${goQuote(colonPort)} after host`;
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0 && !validOptionalPort(host.slice(colon))) return `invalid port ${goQuote(host.slice(colon))} after host`;
  }
  return unescapeError(host, 'host');
}

/** Returns the parsed URL or Go's error text (url.Parse). */
export function parseGoUrl(raw: string): GoUrl | { error: string } {
  const hash = raw.indexOf('#');
  // Errors before the fragment is split off name the URL without it (url.Parse).
  const withoutFragment = hash >= 0 ? raw.slice(0, hash) : raw;
  const fail = (message: string, url = withoutFragment): { error: string } => ({ error: `parse ${goQuote(url)}: ${message}` });
  if (/[\x00-\x1f\x7f]/.test(withoutFragment)) return fail('net/url: invalid control character in URL');
  let rest = withoutFragment;
  let scheme = '';
  const schemeMatch = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (schemeMatch) {
    scheme = schemeMatch[1]!.toLowerCase();
    rest = rest.slice(schemeMatch[0].length);
  } else if (rest.startsWith(':')) {
    return fail('missing protocol scheme');
  }
  let rawQuery = '';
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) {
    // A lone trailing '?' sets ForceQuery; RawQuery stays empty.
    rest = rest.slice(0, -1);
  } else {
    const question = rest.indexOf('?');
    if (question >= 0) {
      rawQuery = rest.slice(question + 1);
      rest = rest.slice(0, question);
    }
  }
  let user: string | undefined;
  let host = '';
  let opaque = false;
  if (!rest.startsWith('/')) {
    // A rootless path after a scheme is opaque and not checked further.
    if (scheme !== '') opaque = true;
    else if (rest.split('/')[0]!.includes(':')) return fail('first path segment in URL cannot contain colon');
  }
  if (!opaque && (scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    const authorityEnd = rest.indexOf('/', 2);
    const authority = authorityEnd >= 0 ? rest.slice(2, authorityEnd) : rest.slice(2);
    rest = authorityEnd >= 0 ? rest.slice(authorityEnd) : '';
    const at = authority.lastIndexOf('@');
    host = at >= 0 ? authority.slice(at + 1) : authority;
    const problem = hostError(host);
    if (problem !== undefined) return fail(problem);
    if (at >= 0) {
      user = authority.slice(0, at);
      if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(user)) return fail('net/url: invalid userinfo');
      const userProblem = unescapeError(user, 'other');
      if (userProblem !== undefined) return fail(userProblem);
    }
  }
  if (!opaque) {
    const pathProblem = unescapeError(rest, 'other');
    if (pathProblem !== undefined) return fail(pathProblem);
  }
  let fragment = '';
  if (hash >= 0) {
    fragment = raw.slice(hash + 1);
    const fragmentProblem = unescapeError(fragment, 'other');
    if (fragmentProblem !== undefined) return fail(fragmentProblem, raw);
  }
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
