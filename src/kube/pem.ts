/**
 * PEM blocks as Go's encoding/pem reads them (pem.Decode, called in a loop by
 * x509.CertPool.AppendCertsFromPEM, which is how the API server reads a webhook's caBundle).
 * Go is stricter than OpenSSL in some places and more lenient in others, and what the API server
 * trusts is what Go reads:
 * - a BEGIN line counts only at the start of the data or right after a line feed: a byte-order
 *   mark before the first, or a second file appended without a line break, hides a block;
 * - the type line, and the END line's rest, may end only in spaces and tabs;
 * - lines of `Key: value` right after the BEGIN line are headers (AppendCertsFromPEM skips a
 *   certificate block that has any);
 * - the body is base64 with spaces, tabs and line breaks anywhere (blank lines included, which
 *   OpenSSL refuses), padded as the standard encoding requires; a block whose body does not
 *   decode is skipped, and the search goes on after its BEGIN line.
 */

export interface PemBlock {
  readonly type: string;
  /** It had `Key: value` header lines (AppendCertsFromPEM skips such a certificate). */
  readonly headers: boolean;
  readonly bytes: Buffer;
}

const PEM_START = '\n-----BEGIN ';
const PEM_END = '\n-----END ';
const PEM_END_OF_LINE = '-----';

/** Go's getLine: the line at `from` without its line break (`\n` or `\r\n`) and trailing spaces and tabs, and where the next begins. */
function lineAt(text: string, from: number): { readonly line: string; readonly next: number } {
  let end = text.indexOf('\n', from);
  let next: number;
  if (end < 0) {
    end = text.length;
    next = end;
  } else {
    next = end + 1;
    if (end > from && text.charCodeAt(end - 1) === 13) end--;
  }
  let trimmed = end;
  while (trimmed > from && (text.charCodeAt(trimmed - 1) === 32 || text.charCodeAt(trimmed - 1) === 9)) trimmed--;
  return { line: text.slice(from, trimmed), next };
}

/** base64.StdEncoding after removeSpacesAndTabs: it also skips line breaks, and wants full quanta, padded. */
const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function decodeBody(body: string): Buffer | undefined {
  const compact = body.replace(/[ \t\r\n]/g, '');
  return STANDARD_BASE64.test(compact) ? Buffer.from(compact, 'base64') : undefined;
}

/**
 * Every block pem.Decode returns from `text` (read as bytes: latin1), in order. Linear in the
 * text: each search starts where the last one left off, and the next END line found is kept for
 * the blocks that start before it (thousands of BEGIN lines without an END cost one pass).
 */
export function decodePem(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  /** A character no body can hold (Go's decoder also skips line breaks; spaces and tabs are removed first). */
  const notBase64 = /[^A-Za-z0-9+/= \t\r\n]/g;
  let endSearchedFrom = -1;
  let endFound = -1;
  /** The first `\n-----END ` at or after `from`. */
  const endFrom = (from: number): number => {
    if (endSearchedFrom < 0 || from < endSearchedFrom || (endFound >= 0 && endFound < from)) {
      endSearchedFrom = from;
      endFound = text.indexOf(PEM_END, from);
    }
    return endFound;
  };
  let rest = 0;
  for (;;) {
    // The BEGIN line: at the start of what is left, or after a line feed.
    if (text.startsWith(PEM_START.slice(1), rest)) rest += PEM_START.length - 1;
    else {
      const begin = text.indexOf(PEM_START, rest);
      if (begin < 0) return blocks;
      rest = begin + PEM_START.length;
    }
    const typeLine = lineAt(text, rest);
    rest = typeLine.next;
    if (!typeLine.line.endsWith(PEM_END_OF_LINE)) continue;
    const type = typeLine.line.slice(0, -PEM_END_OF_LINE.length);
    let headers = false;
    let unterminated = false;
    for (;;) {
      if (rest >= text.length) {
        unterminated = true;
        break;
      }
      const { line, next } = lineAt(text, rest);
      if (!line.includes(':')) break;
      headers = true;
      rest = next;
    }
    // Go returns no block at all when the data ends among the headers.
    if (unterminated) return blocks;
    let endIndex: number;
    let trailer: number;
    if (!headers && text.startsWith(PEM_END.slice(1), rest)) {
      endIndex = rest;
      trailer = rest + PEM_END.length - 1;
    } else {
      endIndex = endFrom(rest);
      trailer = endIndex + PEM_END.length;
    }
    if (endIndex < 0) continue;
    // The END line names the same type, ends in five dashes, and nothing but spaces and tabs follow.
    const endLineRest = trailer + type.length + PEM_END_OF_LINE.length;
    if (endLineRest > text.length || !text.startsWith(type, trailer) || !text.startsWith(PEM_END_OF_LINE, trailer + type.length)) continue;
    if (lineAt(text, endLineRest).line !== '') continue;
    // A character base64 never holds ends the body's chances at once: a body that runs into the
    // next BEGIN line is not read to its far END (thousands of such lines would be quadratic).
    notBase64.lastIndex = rest;
    const stray = notBase64.exec(text);
    if (stray !== null && stray.index < endIndex) continue;
    const bytes = decodeBody(text.slice(rest, endIndex));
    if (bytes === undefined) continue;
    blocks.push({ type, headers, bytes });
    rest = lineAt(text, endIndex + PEM_END.length - 1).next;
  }
}
