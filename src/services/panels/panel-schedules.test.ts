import { describe, expect, it } from 'vitest';
import { restartPlan } from './panel-schedules.js';

type Task = { action: string; payload: string; time_offset?: number };
const schedule = (id: number, cron: string, tasks: Task[], active = true) => {
  const [minute, hour, day_of_month, month, day_of_week] = cron.split(' ') as [string, string, string, string, string];
  return {
    id,
    name: `S${id}`,
    cron: { minute, hour, day_of_month, month, day_of_week },
    is_active: active,
    relationships: { tasks: { data: tasks.map((t, i) => ({ attributes: { sequence_id: i + 1, ...t } })) } },
  };
};
const options = { timezone: 'America/New_York', restartMinutes: 5 };

describe('a server restart plan', () => {
  it('takes active schedules that restart, stop or kill, by power or console, with the time before the restart', () => {
    const plan = restartPlan(
      [
        schedule(3, '0 4 * * *', [
          { action: 'command', payload: 'say restart soon' },
          { action: 'command', payload: 'say 1 minute', time_offset: 240 },
          { action: 'power', payload: 'restart', time_offset: 61 },
        ]),
        schedule(1, '30 */6 * * 1-5', [{ action: 'command', payload: '/stop' }]),
        schedule(2, '0 3 * * *', [
          { action: 'backup', payload: '' },
          { action: 'power', payload: 'start' },
        ]),
        schedule(4, '0 5 * * *', [{ action: 'power', payload: 'kill' }], false),
        // The same slot as schedule 3 counts once.
        schedule(5, '0 4 * * *', [{ action: 'power', payload: 'stop', time_offset: 301 }]),
      ],
      options,
    );
    expect(plan).toEqual({
      slots: [
        { cron: '30 */6 * * 1-5', timezone: 'America/New_York', durationMin: 5 },
        { cron: '0 4 * * *', timezone: 'America/New_York', durationMin: 11 },
      ],
      schedules: ['S1', 'S3'],
    });
  });

  it('leaves out a cron the recurrence cannot read, and keeps at most ten slots', () => {
    const restart = [{ action: 'power', payload: 'restart' }];
    const many = Array.from({ length: 12 }, (_, i) => schedule(i + 10, `${i} 2 * * *`, restart));
    const plan = restartPlan([schedule(1, '99 4 * * *', restart), ...many], options);
    expect(plan.slots).toHaveLength(10);
    expect(plan.slots[0]?.cron).toBe('0 2 * * *');
  });
});
