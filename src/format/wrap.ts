/**
 * Word wrapping for terminal output. Plain text in, lines out: colour codes are added after
 * wrapping, so widths are the text's own. Width counts code points (names and messages are
 * mostly ASCII; a wide CJK character counts as one, which at worst makes a line overflow).
 */

/** Columns a plain text takes (code points). */
export const textWidth = (text: string): number => [...text].length;

/**
 * `text` broken at spaces into lines of at most `max` columns. A word longer than a line (a URL,
 * a field path) is kept whole on a line of its own rather than cut: it stays copyable and
 * searchable. Runs of spaces at a break are dropped.
 */
export function wrapWords(text: string, max: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (word === '' && current === '') continue;
    const candidate = current === '' ? word : `${current} ${word}`;
    if (current !== '' && textWidth(candidate) > max) {
      lines.push(current.trimEnd());
      current = word;
    } else {
      current = candidate;
    }
  }
  if (current !== '' || lines.length === 0) lines.push(current.trimEnd());
  return lines;
}
