// Reads a Prometheus text-format scrape (what /metrics answers) the way Prometheus does: families by their TYPE, samples by name and labels.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  /** Each family's type, by the name its `# TYPE` line gives. */
  families: Map<string, string>;
  samples: Sample[];
  /** The names a PromQL expression may use: every sample's, and each family's with its type's suffixes (a histogram's _bucket, _sum, _count). */
  names: Set<string>;
  /** The value of the sample with this name and these labels (others may be present too), or undefined. */
  value(name: string, labels?: Record<string, string>): number | undefined;
}

const SUFFIXES: Record<string, string[]> = {
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['_sum', '_count'],
  counter: [],
  gauge: [],
  untyped: [],
};

export function parseScrape(text: string): Scrape {
  const families = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) families.set(type[1] as string, type[2] as string);
    if (line.startsWith('#')) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, raw] of (sample[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[key as string] = (raw as string).replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: sample[1] as string, labels, value: Number(sample[3]) });
  }
  const names = new Set(samples.map((s) => s.name));
  for (const [name, type] of families) for (const suffix of ['', ...(SUFFIXES[type] ?? [])]) names.add(name + suffix);
  return {
    families,
    samples,
    names,
    value(name, labels = {}) {
      return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
    },
  };
}
