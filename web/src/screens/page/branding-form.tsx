// A page's branding (docs/branding.md): accent colour (refused below WCAG AA on the page background, the reason shown under it), logo
// and favicon (uploaded, or by URL), header links, footer text, "Powered by Warden", and its custom stylesheet.
import {
  ActionIcon,
  Alert,
  Button,
  FileButton,
  Group,
  Image,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { useOrganizationKey } from '../../api/organization';
import { livePageUrl, type PageView, pageAssetsQuery, pageChanged } from '../../api/pages';
import { formErrors } from '../../ui/form-errors';
import { SaveFooter } from '../../ui/save-footer';

const FIELDS = [
  'branding.accentColor',
  'branding.logoUrl',
  'branding.faviconUrl',
  'branding.links',
  'branding.footerText',
  'branding.hidePoweredBy',
  'customCss',
] as const;
const MAX_LINKS = 5;
/** WCAG AA for text: the server refuses an accent below it, this says so while typing. */
const AA = 4.5;

type Link = { label: string; url: string };

export function BrandingForm({ page, readOnly, mayUpload }: { page: PageView; readOnly: boolean; mayUpload: boolean }) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const b = page.branding;
  const [accent, setAccent] = useState(b.accentColor ?? '');
  const [logoUrl, setLogoUrl] = useState(b.logoUrl ?? '');
  const [faviconUrl, setFaviconUrl] = useState(b.faviconUrl ?? '');
  const [links, setLinks] = useState<Link[]>(b.links);
  const [footer, setFooter] = useState(b.footerText ?? '');
  const [hidePoweredBy, setHidePoweredBy] = useState(b.hidePoweredBy);
  const [css, setCss] = useState(page.customCss ?? '');
  const save = useMutation({
    mutationFn: () =>
      call(
        api.PATCH('/api/v1/pages/{slug}', {
          params: { path: { slug: page.slug } },
          body: {
            branding: {
              accentColor: accent.trim() || null,
              logoUrl: logoUrl.trim() || null,
              faviconUrl: faviconUrl.trim() || null,
              links: links
                .filter((l) => l.label.trim() || l.url.trim())
                .map((l) => ({ label: l.label.trim(), url: l.url.trim() })),
              footerText: footer.trim() || null,
              hidePoweredBy,
            },
            customCss: css.trim() ? css : null,
          },
        }),
      ),
    onSuccess: () => pageChanged(queryClient, org, page.slug),
  });
  const errors = save.error ? formErrors(save.error, FIELDS) : null;
  const ratio = contrastOnPage(accent.trim());
  return (
    <Stack gap="md">
      <Group align="flex-start" gap="xl" wrap="wrap">
        <AssetUpload slug={page.slug} name="logo" readOnly={!mayUpload} />
        <AssetUpload slug={page.slug} name="favicon" readOnly={!mayUpload} />
      </Group>
      <form
        aria-label="Branding"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Stack gap="sm">
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
                <span
                  aria-hidden="true"
                  style={{ width: 16, height: 16, borderRadius: 4, background: accent.trim() }}
                />
              ) : null
            }
            error={errors?.fields['branding.accentColor']}
          />
          <TextInput
            label="Logo URL"
            description="An uploaded logo wins over it."
            placeholder="https://…"
            readOnly={readOnly}
            value={logoUrl}
            onChange={(e) => setLogoUrl(e.currentTarget.value)}
            error={errors?.fields['branding.logoUrl']}
          />
          <TextInput
            label="Favicon URL"
            description="An uploaded favicon wins over it."
            placeholder="https://…"
            readOnly={readOnly}
            value={faviconUrl}
            onChange={(e) => setFaviconUrl(e.currentTarget.value)}
            error={errors?.fields['branding.faviconUrl']}
          />
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
            {errors?.fields['branding.links'] && (
              <Text size="sm" c="red">
                {errors.fields['branding.links']}
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
          <Textarea
            label="Footer text"
            rows={2}
            readOnly={readOnly}
            value={footer}
            onChange={(e) => setFooter(e.currentTarget.value)}
            error={errors?.fields['branding.footerText']}
          />
          <Switch
            label='Hide "Powered by Warden"'
            checked={hidePoweredBy}
            disabled={readOnly}
            onChange={(e) => setHidePoweredBy(e.currentTarget.checked)}
          />
          <Textarea
            label="Custom stylesheet"
            description="CSS served as the page's own stylesheet (at most 32 KB), loaded after Warden's; it cannot load anything from other sites."
            rows={5}
            autosize
            maxRows={16}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            readOnly={readOnly}
            value={css}
            onChange={(e) => setCss(e.currentTarget.value)}
            error={errors?.fields.customCss}
          />
          <SaveFooter
            error={errors?.message}
            saved={save.isSuccess}
            pending={save.isPending}
            readOnly={readOnly}
            label="Save branding"
          />
        </Stack>
      </form>
    </Stack>
  );
}

const ACCEPT: Record<'logo' | 'favicon', string> = {
  logo: 'image/png,image/jpeg,image/webp,image/gif,image/svg+xml',
  favicon: 'image/png,image/jpeg,image/webp,image/gif,image/svg+xml,image/x-icon,.ico',
};

/** The page's uploaded image: a preview, upload (the server recognises the type and caps the size) and remove. */
function AssetUpload({ slug, name, readOnly }: { slug: string; name: 'logo' | 'favicon'; readOnly: boolean }) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const assets = useQuery(pageAssetsQuery(org, slug));
  const asset = assets.data?.assets.find((a) => a.name === name);
  // The images are the page's: its refresh covers them.
  const done = () => pageChanged(queryClient, org, slug);
  const upload = useMutation({
    mutationFn: (file: File) =>
      call(
        api.PUT('/api/v1/pages/{slug}/assets/{name}', {
          params: { path: { slug, name } },
          body: file as never,
          bodySerializer: (body: unknown) => body as BodyInit,
          headers: { 'content-type': file.type || 'application/octet-stream' },
        }),
      ),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: () => call(api.DELETE('/api/v1/pages/{slug}/assets/{name}', { params: { path: { slug, name } } })),
    onSuccess: done,
  });
  const label = name === 'logo' ? 'Logo' : 'Favicon';
  const error = upload.error ?? remove.error;
  return (
    <Stack gap={6} role="group" aria-label={label} style={{ minWidth: 220 }}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      {asset ? (
        <Image
          src={livePageUrl(slug) + asset.path}
          alt={`The page's ${name}`}
          h={name === 'logo' ? 48 : 32}
          w="auto"
          fit="contain"
          style={{ alignSelf: 'flex-start' }}
        />
      ) : (
        <Text size="sm" c="dimmed">
          None uploaded.
        </Text>
      )}
      {!readOnly && (
        <Group gap="xs">
          <FileButton accept={ACCEPT[name]} onChange={(file) => file && upload.mutate(file)}>
            {(props) => (
              <Button {...props} variant="light" size="compact-sm" loading={upload.isPending}>
                {asset ? `Replace ${name}` : `Upload ${name}`}
              </Button>
            )}
          </FileButton>
          {asset && (
            <Button
              variant="subtle"
              color="red"
              size="compact-sm"
              loading={remove.isPending}
              onClick={() => remove.mutate()}
            >
              Remove
            </Button>
          )}
        </Group>
      )}
      <Text size="xs" c="dimmed">
        PNG, JPEG, WebP, GIF or SVG{name === 'favicon' ? ' or ICO' : ''}; at most {name === 'logo' ? '256' : '64'} KB.
      </Text>
      {error && (
        <Alert color="red" role="alert" p="xs">
          {error instanceof Error ? error.message : 'Not uploaded.'}
        </Alert>
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
