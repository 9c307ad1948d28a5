// The Reports screen (/app/reports): uptime and SLA of any monitors, components and pages over a range of days, from
// GET /api/v1/reports/uptime: a table of the whole range, a chart of its days or months, and the report as CSV or JSON.
import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../api/client';
import { useOrganizationKey } from '../api/organization';
import { type UptimeReportParams, uptimeReportFile, uptimeReportQuery } from '../api/reports';
import { type FormErrors, formErrors } from '../ui/form-errors';
import { QueryState } from '../ui/query-state';
import { ScreenHeader } from '../ui/screen-header';
import { type DayRange, naturalGranularity, presetRange, type RangePreset } from './reports/range';
import { RangePicker } from './reports/range-picker';
import { ReportChart } from './reports/report-chart';
import { ReportTable } from './reports/report-table';
import { NO_SUBJECTS, SubjectPickers, type Subjects } from './reports/subject-pickers';

/** The query's fields, as the API names them in a refusal (`query.from`, or `from` from the verb's own checks). */
const SUBJECTS = ['monitors', 'components', 'pages'] as const;
const FIELDS = ['from', 'to', ...SUBJECTS].flatMap((f) => [`query.${f}`, f]);

/** The message under a query field, if the refusal names it. */
const fieldError = (errors: FormErrors<string> | null, name: string) =>
  errors?.fields[`query.${name}`] ?? errors?.fields[name];

export default function ReportsScreen() {
  const org = useOrganizationKey();
  const [now] = useState(() => Date.now());
  const [preset, setPreset] = useState<RangePreset>('last-30');
  const [custom, setCustom] = useState<DayRange>(() => presetRange('last-30', now) as DayRange);
  const [granularity, setGranularity] = useState<'day' | 'month'>('day');
  const [subjects, setSubjects] = useState<Subjects>(NO_SUBJECTS);
  const range = presetRange(preset, now) ?? custom;
  const complete = range.from !== '' && range.to !== '';
  const params = reportParams(range, granularity, subjects);
  const report = useQuery({ ...uptimeReportQuery(org, params), enabled: complete });
  // A refused query (400) names its fields: said under them (the rest in one alert) instead of the report.
  const refused = isApiError(report.error, 400);
  const errors = refused ? formErrors(report.error, FIELDS) : null;
  const choosePreset = (next: RangePreset) => {
    setPreset(next);
    const days = presetRange(next, now);
    if (days) setGranularity(naturalGranularity(days));
    // Custom starts from the range shown, to be adjusted.
    else setCustom(range);
  };

  return (
    <>
      <ScreenHeader title="Reports">
        <DownloadButtons params={params} disabled={!complete} />
      </ScreenHeader>
      <Stack gap="lg">
        <Paper withBorder p="md" radius="md" component="section" aria-label="What the report covers">
          <Stack gap="md">
            <RangePicker
              preset={preset}
              onPreset={choosePreset}
              custom={custom}
              onCustom={setCustom}
              granularity={granularity}
              onGranularity={setGranularity}
              errors={{ from: fieldError(errors, 'from'), to: fieldError(errors, 'to') }}
            />
            <SubjectPickers
              value={subjects}
              onChange={setSubjects}
              errors={Object.fromEntries(SUBJECTS.map((f) => [f, fieldError(errors, f)]))}
            />
          </Stack>
        </Paper>
        {errors?.message && (
          <Alert color="red" role="alert" title="No report">
            {errors.message}
          </Alert>
        )}
        {complete && !refused && (
          <QueryState
            query={report}
            loading="Loading the report"
            failed="Could not make the report"
            isEmpty={(data) => data.subjects.length === 0}
            empty={<Text c="dimmed">No monitors yet: a report needs something to cover.</Text>}
          >
            {(data) => (
              <Stack gap="lg" aria-busy={report.isFetching}>
                <ReportTable
                  subjects={data.subjects}
                  caption={`Uptime from ${data.from} to ${data.to} (${data.timezone})`}
                />
                <ReportChart subjects={data.subjects} per={data.granularity} />
              </Stack>
            )}
          </QueryState>
        )}
      </Stack>
    </>
  );
}

function reportParams(range: DayRange, granularity: 'day' | 'month', subjects: Subjects): UptimeReportParams {
  const list = (keys: string[]) => (keys.length > 0 ? keys.join(',') : undefined);
  const params: UptimeReportParams = { from: range.from, to: range.to, granularity };
  const monitors = list(subjects.monitors);
  const components = list(subjects.components);
  const pages = list(subjects.pages);
  if (monitors) params.monitors = monitors;
  if (components) params.components = components;
  if (pages) params.pages = pages;
  return params;
}

/** The report as a file, saved by the browser under the server's name for it. */
function DownloadButtons({ params, disabled }: { params: UptimeReportParams; disabled: boolean }) {
  const org = useOrganizationKey();
  const download = useMutation({
    mutationFn: async (format: 'csv' | 'json') => {
      const { blob, filename } = await uptimeReportFile(org, params, format);
      const url = URL.createObjectURL(blob);
      const link = Object.assign(document.createElement('a'), { href: url, download: filename });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    },
  });
  return (
    <Group gap="xs">
      {download.error && (
        <Text size="sm" c="red" role="alert">
          {formErrors(download.error, []).message}
        </Text>
      )}
      <Button
        variant="default"
        disabled={disabled}
        loading={download.isPending && download.variables === 'csv'}
        onClick={() => download.mutate('csv')}
      >
        Download CSV
      </Button>
      <Button
        variant="default"
        disabled={disabled}
        loading={download.isPending && download.variables === 'json'}
        onClick={() => download.mutate('json')}
      >
        Download JSON
      </Button>
    </Group>
  );
}
