/** What in an output a GitHub Actions runner would execute, a terminal interpret, or a PR comment render (shared by the output tests). */
/** What a runner would execute, or a terminal would interpret. */
export function problems(output: string): string[] {
  const found: string[] = [];
  if (/\r/.test(output)) found.push('a CR');
  output.split('\n').forEach((line, i) => {
    if (/^\s*::/.test(line)) found.push(`line ${i + 1} starts a workflow command: ${JSON.stringify(line)}`);
    if (line.includes('##[')) found.push(`line ${i + 1} holds a legacy command: ${JSON.stringify(line)}`);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(line)) found.push(`line ${i + 1} holds a raw control character: ${JSON.stringify(line)}`);
  });
  return found;
}

export function markdownProblems(output: string): string[] {
  const found = problems(output);
  if (output.includes('<img')) found.push('raw <img');
  if (output.includes('</details>') && !/^<\/details>$/m.test(output)) found.push('raw </details> from the input');
  // Lint's own grouping closes its blocks on a line of their own; no other </details> may occur.
  const closes = output.split('\n').filter((line) => line.includes('</details>'));
  if (closes.some((line) => line !== '</details>')) found.push('</details> inside a line');
  if (/@org/.test(output)) found.push('an unescaped @mention');
  if (/https?:\/\/evil|www\.evil/.test(output)) found.push('a link to the payload host');
  return found;
}

