/**
 * Strings from the input (names, labels, file names, `# Source:` comments, messages that quote
 * values) are data: in no output may they start a GitHub Actions workflow command or reach a
 * terminal as control characters. The runner reads a line whose first non-blank characters are
 * `::` as a command (`::stop-commands::…`, `::add-mask::…`), and `##[` anywhere in a line as the
 * legacy form. One function per output kind, each in that kind's own escaping where it has one
 * (so JSON, XML and HTML consumers read the original text back):
 *
 * | kind     | control character       | `##[`        | line starting `::` |
 * |----------|-------------------------|--------------|--------------------|
 * | text     | `\u001b` (as text); `\n` `\r` as `\n` `\r` | `#\#[` | `\::`    |
 * | JSON     | `\u001b` (JSON escape)  | `#\u0023[`   | cannot occur       |
 * | XML/HTML | `\u001b` (as text)      | `#&#35;[`    | `&#58;:`           |
 * | Markdown | `\u001b` (as text)      | `#&#35;[`    | `&#58;:`           |
 *
 * Control characters are C0 (tab excepted), DEL and C1. `--format github` escapes its own way
 * (github.ts, the Actions toolkit's escaping) and does not use this module.
 */

/** C0 but tab, DEL, C1. Line breaks are included: a value from the input never adds a line. */
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;
/** The same for output that keeps its own line breaks (JSON, XML, HTML, whole outputs). */
const CONTROL_BUT_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r' };

const visible = (char: string): string => SHORT[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * A value from the input for human-readable text (stylish, simulate and report text, stderr):
 * one line, control characters written as escapes (`\u001b`, `\n`). Ordinary names are unchanged.
 */
export function safeText(value: string): string {
  return value.replace(CONTROL, visible);
}

/**
 * A finding's message as lines. The only line breaks a message has of its own are those of the
 * API server's CEL errors (`ERROR: <input>:1:5: …`, then ` | ` snippet and caret lines): a break
 * before one of those starts a line; any other break came with a value from the input and is
 * written `\n`. Each line as safeText; the lines still need guardText around them.
 */
export function messageLines(message: string): string[] {
  return message.split(/\r?\n(?= \| |ERROR: <input>:)/).map(safeText);
}

/** The caret line under a CEL snippet (` | ....^`): it only means something below its snippet. */
const CARET_LINE = /^ \| [ .]*\^$/;

/**
 * A finding's message as one line, for one-line-per-finding outputs (compact, GitLab's
 * description): messageLines joined with spaces, without the caret line, whose column the
 * `ERROR: <input>:1:5:` prefix gives already. Still needs guardText (or the output's own guard).
 */
export function oneLineMessage(message: string): string {
  return messageLines(message)
    .filter((line) => !CARET_LINE.test(line))
    .map((line, index) => (index === 0 ? line : line.trimStart()))
    .join(' ');
}

/** A line that starts a workflow command: blanks (and colour codes, which log viewers strip) before `::`. */
const COMMAND_LINE = /^((?:\s|\u001b\[[0-9;]*m)*)::/gm;
/** The legacy command form, anywhere in a line. */
const LEGACY = /##\[/g;

/**
 * A whole text output (after safeText on its values): no line starts a workflow command. A line
 * that would start with `::` starts with `\::`; `##[` is written `#\#[`.
 */
export function guardText(output: string): string {
  return output.replace(LEGACY, '#\\#[').replace(COMMAND_LINE, '$1\\::');
}

/**
 * A whole JSON output (JSON.stringify's, pretty or not). Every value from the input is in a
 * string, and pretty printing starts no line inside one, so a line never starts with `::`. `##[`
 * can only be inside a string: its second `#` becomes the escape `\u0023`. JSON.stringify
 * escapes C0 but not DEL and C1: those become `\u` escapes too. JSON.parse reads the same data.
 */
export function guardJson(output: string): string {
  return output.replace(LEGACY, '#\\u0023[').replace(/[\u007f-\u009f]/g, visible);
}

/**
 * Control characters of a value for XML or HTML text, as visible escapes (before the markup
 * escaping): XML 1.0 forbids most C0 even as references, and a reference to one would reach
 * whoever prints the decoded text. Line breaks and tabs are kept for the markup to handle.
 */
export function safeMarkupText(value: string): string {
  return keepingBreaks(value);
}

/**
 * Control characters other than line breaks and tabs as visible escapes: for outputs that
 * encode the breaks themselves (GitHub workflow commands write them %0A). A raw ESC would
 * reach the log viewer, which renders terminal escapes.
 */
export function keepingBreaks(value: string): string {
  return value.replace(CONTROL_BUT_BREAKS, visible);
}

/**
 * A whole XML, HTML or Markdown output: `##[` as `#&#35;[`, and a line that would start with
 * `::` (a value with a line break in a text node) with its first `:` as `&#58;`. Both are
 * character references, so an XML or HTML reader gets the original text back.
 */
export function guardMarkup(output: string): string {
  return output.replace(LEGACY, '#&#35;[').replace(COMMAND_LINE, '$1&#58;:');
}

/**
 * Text for a Markdown table cell (a PR comment, $GITHUB_STEP_SUMMARY): HTML and Markdown syntax
 * escaped, `|` escaped for the table, line breaks as <br>, `@` as a reference so that no value
 * mentions a user or team, `://` and `www.` broken with a reference so that no value becomes a
 * link, control characters as visible escapes.
 */
export function escapeCell(value: string): string {
  return safeMarkupText(value)
    .replace(/\r\n?/g, '\n')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@/g, '&#64;')
    .replace(/:\/\//g, '&#58;//')
    .replace(/\bwww\./gi, (match) => `${match.slice(0, 3)}&#46;`)
    .replace(/([\\`*_[\]~|])/g, '\\$1')
    .replace(/\n/g, '<br>');
}

/**
 * A name in monospace, in a table cell or prose: `<code>` around the escaped cell text. A Markdown
 * code span would show references and backslashes literally, so it could not escape anything.
 */
export function codeSpan(value: string): string {
  return `<code>${escapeCell(value)}</code>`;
}
