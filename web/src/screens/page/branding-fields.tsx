// Two parts of the branding form: the accent colour with its contrast on the page said while typing (the server refuses
// one below WCAG AA), and the header links edited in place.
import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';

const MAX_LINKS = 5;
/** WCAG AA for text: the server refuses an accent below it, this says so while typing. */
const AA = 4.5;

export type Link = { label: string; url: string };

export function AccentInput({
  accent,
  setAccent,
  readOnly,
  error,
}: {
  accent: string;
  setAccent: (accent: string) => void;
  readOnly: boolean;
  error: string | undefined;
}) {
  const ratio = contrastOnPage(accent.trim());
  return (
    <TextInput
      label="Accent colour"
      placeholder="#4752c4"
      description={
        ratio === null
          ? 'Links and buttons; at least 4.5:1 against the page background (WCAG AA).'
          : `Contrast against the page background: ${ratio.toFixed(2)}:1${ratio < AA ? ' — below AA (4.5:1): choose a darker colour' : ''}`
      }
      readOnly={readOnly}
      value={accent}
      onChange={(e) => setAccent(e.currentTarget.value)}
      leftSection={
        /^#[0-9a-f]{6}$/i.test(accent.trim()) ? (
          <span aria-hidden="true" style={{ width: 16, height: 16, borderRadius: 4, background: accent.trim() }} />
        ) : null
      }
      error={error}
    />
  );
}

export function HeaderLinks({
  links,
  setLinks,
  readOnly,
  error,
}: {
  links: Link[];
  setLinks: (links: Link[]) => void;
  readOnly: boolean;
  error: string | undefined;
}) {
  return (
    <Stack gap={4} role="group" aria-label="Header links">
      <Text size="sm" fw={500}>
        Header links
      </Text>
      {links.map((link, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the rows are edited in place; their position is their identity.
        <Group key={i} gap="xs" wrap="nowrap" align="flex-start">
          <TextInput
            aria-label={`Link ${i + 1} label`}
            placeholder="Discord"
            readOnly={readOnly}
            value={link.label}
            onChange={(e) => setLinks(replaced(links, i, { ...link, label: e.currentTarget.value }))}
          />
          <TextInput
            aria-label={`Link ${i + 1} URL`}
            placeholder="https://discord.gg/…"
            style={{ flex: 1 }}
            readOnly={readOnly}
            value={link.url}
            onChange={(e) => setLinks(replaced(links, i, { ...link, url: e.currentTarget.value }))}
          />
          {!readOnly && (
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label={`Remove link ${i + 1}`}
              onClick={() => setLinks(links.filter((_, j) => j !== i))}
            >
              ×
            </ActionIcon>
          )}
        </Group>
      ))}
      {error && (
        <Text size="sm" c="red">
          {error}
        </Text>
      )}
      {!readOnly && links.length < MAX_LINKS && (
        <Group>
          <Button variant="subtle" size="compact-sm" onClick={() => setLinks([...links, { label: '', url: '' }])}>
            Add a link
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function replaced<T>(list: T[], index: number, item: T): T[] {
  return list.map((old, i) => (i === index ? item : old));
}

/**
 * The WCAG contrast of #rrggbb against the public page's light background (#f6f8fa, what the server checks against:
 * src/domain/branding.ts); null for anything else (the server has the last word).
 */
function contrastOnPage(hex: string): number | null {
  if (!/^#[0-9a-f]{6}$/i.test(hex)) return null;
  const luminance = (color: string) => {
    const channel = (i: number) => {
      const c = Number.parseInt(color.slice(1 + i * 2, 3 + i * 2), 16) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  };
  const [light, dark] = [luminance('#f6f8fa'), luminance(hex)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}
