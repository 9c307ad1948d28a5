import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const TICK_SHAPE = fileURLToPath(new URL('./tick-shape.ts', import.meta.url));

describe('the pinned tick object shape', () => {
  // V8's own check (%HaveSameMap, under --allow-natives-syntax) that the pin and what process.nextTick makes share one
  // shape, before and after full collections that find no tick object alive: if Node changed its tick objects, the pin
  // would keep nothing and the hot paths would lose their speed after an idle spell again (docs/operations.md, Memory).
  it('has the shape of the objects process.nextTick makes, and keeps it through full collections', () => {
    const script = `
      const { createHook } = await import('node:async_hooks');
      const { pinTickObjectShape, pinnedTickObject } = await import(${JSON.stringify(TICK_SHAPE)});
      // A tick object as Node makes it, caught by an async hook's init (the test's only use of one).
      const tickObject = () => {
        let caught;
        const hook = createHook({ init(id, type, trigger, resource) { if (type === 'TickObject') caught = resource; } }).enable();
        process.nextTick(() => {}, 'an argument');
        hook.disable();
        return caught;
      };
      const quiet = () => new Promise((resolve) => setTimeout(resolve, 10));
      const pinned = pinTickObjectShape();
      await quiet();
      const before = %HaveSameMap(tickObject(), pinnedTickObject());
      await quiet();
      gc(); gc();
      await quiet();
      const after = %HaveSameMap(tickObject(), pinnedTickObject());
      console.log(JSON.stringify({ pinned, before, after }));
    `;
    const out = execFileSync(
      process.execPath,
      ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toEqual({ pinned: true, before: true, after: true });
  });
});
