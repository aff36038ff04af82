/** Phrases several checks build the same way upstream (`fmt.Sprintf("%s %s", pluralize(...), joinQuote(...))`). */
import { joinQuote, pluralize } from './go-text.js';

/** `container "a"` / `containers "a", "b"` */
export function containersPhrase(names: readonly string[]): string {
  return `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
}

/** `volume "a"` / `volumes "a", "b"` */
export function volumesPhrase(names: readonly string[]): string {
  return `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)}`;
}
