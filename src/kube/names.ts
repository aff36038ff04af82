/**
 * Name and label checks of k8s.io/apimachinery/pkg/util/validation, with its messages, since
 * users compare our output to what `kubectl apply` prints.
 */

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1035_LABEL = '[a-z]([-a-z0-9]*[a-z0-9])?';
const QUALIFIED_NAME = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE = `(${QUALIFIED_NAME})?`;

const anchored = (source: string): RegExp => new RegExp(`^${source}$`);
const dns1123LabelRe = anchored(DNS1123_LABEL);
const dns1123SubdomainRe = anchored(DNS1123_SUBDOMAIN);
const dns1035LabelRe = anchored(DNS1035_LABEL);
const qualifiedNameRe = anchored(QUALIFIED_NAME);
const labelValueRe = anchored(LABEL_VALUE);

const maxLength = (n: number): string => `must be no more than ${n} characters`;

/** validation.RegexError: the message, with examples, and the regex used. */
function regexError(message: string, regex: string, ...examples: string[]): string {
  let out = message;
  if (examples.length > 0) out += ` (e.g. ${examples.map((e) => `'${e}'`).join(',  or ')}, regex used for validation is '${regex}')`;
  else out += ` (regex used for validation is '${regex}')`;
  return out;
}

export function dns1123SubdomainErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 253) errors.push(maxLength(253));
  if (!dns1123SubdomainRe.test(value)) {
    errors.push(regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", DNS1123_SUBDOMAIN, 'example.com'));
  }
  return errors;
}

/** IsDNS1123Label (ValidateNamespaceName applies it). */
export function dns1123LabelErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push(maxLength(63));
  if (!dns1123LabelRe.test(value)) {
    // Matching the subdomain pattern but not the label pattern means it has dots.
    if (dns1123SubdomainRe.test(value)) errors.push('must not contain dots');
    else errors.push(regexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character", DNS1123_LABEL, 'my-name', '123-abc'));
  }
  return errors;
}

export function dns1035LabelErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push(maxLength(63));
  if (!dns1035LabelRe.test(value)) {
    errors.push(regexError("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character", DNS1035_LABEL, 'my-name', 'abc-123'));
  }
  return errors;
}

/** IsQualifiedName: an optional DNS-subdomain prefix and `/`, then a name of at most 63 characters. */
export function qualifiedNameErrors(value: string): string[] {
  const errors: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errors.push('prefix part must be non-empty');
    else for (const message of dns1123SubdomainErrors(prefix)) errors.push(`prefix part ${message}`);
  } else {
    return [
      regexError("a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", QUALIFIED_NAME, 'MyName', 'my.name', '123-abc') +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errors.push('name part must be non-empty');
  else if (name.length > 63) errors.push(`name part ${maxLength(63)}`);
  // Checked even when the name part is empty, so `example.com/` gets both messages.
  if (!qualifiedNameRe.test(name)) {
    errors.push(`name part ${regexError("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", QUALIFIED_NAME, 'MyName', 'my.name', '123-abc')}`);
  }
  return errors;
}

export function labelValueErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push(maxLength(63));
  if (!labelValueRe.test(value)) {
    errors.push(regexError("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", LABEL_VALUE, 'MyValue', 'my_value', '12345'));
  }
  return errors;
}
