// Writes a warden.yaml document (what `warden export` and `warden import …` print): YAML 1.2 with a comment header,
// keys in the order given, long strings kept on one line so a diff shows one change per line.
import { Document } from 'yaml';

/** The YAML text of `doc`, with `header` lines as `# ` comments above it (an empty line stays an empty line). */
export function formatWardenYaml(doc: Record<string, unknown>, header: readonly string[] = []): string {
  const document = new Document(doc, { keepUndefined: false });
  if (header.length > 0) document.commentBefore = header.map((line) => (line === '' ? '' : ` ${line}`)).join('\n');
  return document.toString({ lineWidth: 0, minContentWidth: 0 });
}
