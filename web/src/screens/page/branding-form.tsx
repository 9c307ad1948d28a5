// A page's branding (docs/branding.md): accent colour (refused below WCAG AA on the page background, the reason shown under it), logo
// and favicon (uploaded, or by URL), header links, footer text, "Powered by Warden", and its custom stylesheet.
import { Group, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { useOrganizationKey } from '../../api/organization';
import { type PageView, pageChanged } from '../../api/pages';
import { formErrors } from '../../ui/form-errors';
import { SaveFooter } from '../../ui/save-footer';
import { AssetUpload } from './asset-upload';
import { AccentInput, HeaderLinks, type Link } from './branding-fields';

const FIELDS = [
  'branding.accentColor',
  'branding.logoUrl',
  'branding.faviconUrl',
  'branding.links',
  'branding.footerText',
  'branding.hidePoweredBy',
  'customCss',
] as const;

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
          <AccentInput
            accent={accent}
            setAccent={setAccent}
            readOnly={readOnly}
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
          <HeaderLinks links={links} setLinks={setLinks} readOnly={readOnly} error={errors?.fields['branding.links']} />
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
