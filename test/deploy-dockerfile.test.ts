// deploy/Dockerfile's shape, without Docker: the final stage installs production dependencies only, runs as a
// non-root user with /data as a volume, checks /readyz and is labelled; its COPY sources exist. test/image-recipe.ts
// (run by .ci/run) replays the same stage on the host and starts the server from it.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Instruction, keyValues, parseDockerfile, readDockerfile, type Stage, shellWords } from './dockerfile.js';

const repo = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const pkg = JSON.parse(readFileSync(repo('package.json'), 'utf8')) as {
  license: string;
  version: string;
  bin: { warden: string };
  scripts: { start: string };
};
const stages = readDockerfile(repo('deploy/Dockerfile'));
const final = stages.at(-1) as Stage;
const all = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);
const one = (stage: Stage, keyword: string) => {
  const found = all(stage, keyword);
  expect(found, `${keyword} in stage ${stage.name}`).toHaveLength(1);
  return found[0] as Instruction;
};
const runs = (stage: Stage) => all(stage, 'RUN').map((i) => i.text);

describe('deploy/Dockerfile', () => {
  it('builds in earlier stages and ends on the slim Node 20 image', () => {
    expect(stages.map((s) => s.name)).toEqual(['native', 'build', '2']);
    for (const stage of stages) expect(stage.image).toBe('node:20-bookworm-slim');
    expect(runs(stages[1] as Stage)).toContain('npm run build');
    // The build writes V8's code cache by running the bundled server once on SQLite: it needs the addon first.
    const build = (stages[1] as Stage).instructions;
    const addon = build.findIndex((i) => i.keyword === 'COPY' && i.flags.from === 'native');
    expect(addon).toBeGreaterThan(-1);
    expect(addon).toBeLessThan(build.findIndex((i) => i.keyword === 'RUN' && i.text === 'npm run build'));
  });

  it('installs production dependencies in the final stage, without compilers or install scripts', () => {
    const install = runs(final).find((text) => /^npm ci\b/.test(text));
    expect(install).toBeDefined();
    expect(shellWords(install as string)).toEqual(expect.arrayContaining(['--omit=dev', '--ignore-scripts']));
    // The compilers and `npm run build` stay in the earlier stages.
    for (const text of runs(final)) expect(text).not.toMatch(/apt-get|npm run build|npm install\b|g\+\+/);
    // The one native addon comes from the stage that built it.
    const addon = all(final, 'COPY').find((i) => i.flags.from === 'native');
    expect(addon?.text).toMatch(/better_sqlite3\.node/);
    expect(runs(stages[0] as Stage).join(' && ')).toContain('npm rebuild better-sqlite3');
  });

  it('runs `warden serve` as the unprivileged node user, with its data in the /data volume', () => {
    const env = Object.assign({}, ...all(final, 'ENV').map((i) => keyValues(i.text))) as Record<string, string>;
    expect(env).toMatchObject({
      NODE_ENV: 'production',
      WARDEN_DATA_DIR: '/data',
      PORT: '8080',
      HOST: '0.0.0.0',
      MALLOC_TRIM_THRESHOLD_: '131072',
      MALLOC_ARENA_MAX: '2',
    });
    expect(one(final, 'VOLUME').text).toBe('/data');
    expect(one(final, 'EXPOSE').text).toBe(env.PORT);
    const user = one(final, 'USER');
    expect(user.text).toBe('node');
    // USER comes after every RUN (nothing after it needs root) and before CMD.
    const index = (i: Instruction) => final.instructions.indexOf(i);
    for (const run of all(final, 'RUN')) expect(index(run)).toBeLessThan(index(user));
    expect(index(user)).toBeLessThan(index(one(final, 'CMD')));
    expect(runs(final)).toContain('mkdir -p /data && chown node:node /data');
    // What `npm start` runs, node options included (--v8-pool-size=0: docs/operations.md, Memory).
    expect(one(final, 'CMD').exec).toEqual(pkg.scripts.start.split(' '));
    expect(one(final, 'CMD').exec).toEqual(['node', '--v8-pool-size=0', pkg.bin.warden, 'serve']);
    expect(one(final, 'STOPSIGNAL').text).toBe('SIGTERM');
  });

  it('checks /readyz on the configured port with node (there is no curl in the slim image): no traffic before ready', () => {
    const healthcheck = one(final, 'HEALTHCHECK');
    expect(healthcheck.exec?.slice(0, 2)).toEqual(['node', '-e']);
    expect(healthcheck.exec?.[2]).toContain("'/readyz'");
    expect(healthcheck.exec?.[2]).toContain('process.env.PORT');
    expect(Object.keys(healthcheck.flags).sort()).toEqual(['interval', 'retries', 'start-period', 'timeout']);
  });

  it('carries the OCI labels, with the license of package.json', () => {
    const labels = Object.assign({}, ...all(final, 'LABEL').map((i) => keyValues(i.text))) as Record<string, string>;
    expect(labels).toMatchObject({
      'org.opencontainers.image.title': 'Warden',
      'org.opencontainers.image.licenses': pkg.license,
      'org.opencontainers.image.version': pkg.version,
      'org.opencontainers.image.base.name': 'docker.io/library/node:20-bookworm-slim',
    });
    expect(labels['org.opencontainers.image.description']).toMatch(/status pages/i);
    expect(labels).toHaveProperty(['org.opencontainers.image.revision']);
  });

  it('copies from the repository only what exists and is not left out of the build context', () => {
    const ignored = readFileSync(repo('.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim());
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', '.git', 'data', '.env']));
    for (const stage of stages)
      for (const copy of all(stage, 'COPY').filter((i) => i.flags.from === undefined))
        for (const source of shellWords(copy.text).slice(0, -1)) {
          expect(existsSync(repo(source)), `${stage.name}: COPY ${source}`).toBe(true);
          expect(ignored, `${source} is in .dockerignore`).not.toContain(source);
        }
    // Every --from names an earlier stage.
    for (const [index, stage] of stages.entries())
      for (const copy of all(stage, 'COPY').filter((i) => i.flags.from !== undefined))
        expect(stages.slice(0, index).map((s) => s.name)).toContain(copy.flags.from);
  });
});

describe('reading a Dockerfile', () => {
  it('joins continuations, drops comments, substitutes ARGs and reads flags and the exec form', () => {
    const [stage] = parseDockerfile(
      [
        'ARG BASE=node:20',
        'FROM ${BASE} AS app',
        'ARG V=1.0',
        'LABEL a="one two" \\',
        '  # a comment inside the continuation',
        '  b=${V}',
        'RUN --mount=type=cache,target=/root/.npm npm ci \\',
        '    --omit=dev',
        'HEALTHCHECK --interval=5s CMD ["node", "-e", "1"]',
      ].join('\n'),
    );
    expect(stage?.name).toBe('app');
    expect(stage?.image).toBe('node:20');
    const [label, run, healthcheck] = stage?.instructions ?? [];
    expect(keyValues(label?.text ?? '')).toEqual({ a: 'one two', b: '1.0' });
    expect(run).toMatchObject({
      keyword: 'RUN',
      flags: { mount: 'type=cache,target=/root/.npm' },
      text: 'npm ci --omit=dev',
    });
    expect(healthcheck).toMatchObject({ flags: { interval: '5s' }, exec: ['node', '-e', '1'] });
  });
});
