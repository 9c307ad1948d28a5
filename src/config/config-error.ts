// A config file that cannot be used, with every problem by path. Its own module: the CLI's entry point reports it
// without loading the YAML parser and the file schema (which `serve` may never need).
export class ConfigError extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`${source} is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}
