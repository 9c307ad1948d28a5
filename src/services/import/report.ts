// What an importer (`warden import uptime-kuma|gatus`) produces: a warden.yaml document and what it could not carry over.

/** One object of the source that was left out or changed on the way, and why: never dropped silently. */
export interface ImportNote {
  /** The source object, as its owner knows it: `monitor "Lobby" (id 12)`, `endpoints[3] "api"`. */
  item: string;
  /** Why it was left out, or what was approximated. */
  reason: string;
}

export interface ImportReport {
  /** The warden.yaml document (the config file's input shape); `validateConfig` accepts it. */
  file: Record<string, unknown>;
  /** Objects of the source not in `file`. */
  skipped: ImportNote[];
  /** Objects in `file` that are not an exact translation (a condition approximated, an option Warden lacks). */
  approximated: ImportNote[];
}

/** The header comment an imported file starts with: where it came from and every note, so the operator reviews them. */
export function importHeader(source: string, report: Pick<ImportReport, 'skipped' | 'approximated'>): string[] {
  const lines = [`Imported from ${source} by \`warden import\`. Review it, then: warden config apply FILE`];
  if (report.skipped.length > 0)
    lines.push(
      '',
      `Not imported (${report.skipped.length}):`,
      ...report.skipped.map((n) => `  - ${n.item}: ${n.reason}`),
    );
  if (report.approximated.length > 0)
    lines.push(
      '',
      `Imported with changes (${report.approximated.length}):`,
      ...report.approximated.map((n) => `  - ${n.item}: ${n.reason}`),
    );
  return lines;
}
