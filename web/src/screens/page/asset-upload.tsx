// A page's uploaded logo or favicon: a preview, upload (the server recognises the type and caps the size) and remove.
import { Alert, Button, FileButton, Group, Image, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { useOrganizationKey } from '../../api/organization';
import { livePageUrl, pageAssetsQuery, pageChanged } from '../../api/pages';

const ACCEPT: Record<'logo' | 'favicon', string> = {
  logo: 'image/png,image/jpeg,image/webp,image/gif,image/svg+xml',
  favicon: 'image/png,image/jpeg,image/webp,image/gif,image/svg+xml,image/x-icon,.ico',
};

/** The page's uploaded image: a preview, upload (the server recognises the type and caps the size) and remove. */
export function AssetUpload({ slug, name, readOnly }: { slug: string; name: 'logo' | 'favicon'; readOnly: boolean }) {
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
