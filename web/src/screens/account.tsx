// The Account and security screen (/app/account): the user's profile, password, sessions (signed-in browsers, each
// revocable) and the TOTP second factor (enrol with a QR code, recovery codes shown once, regenerate, turn off).
import { Stack } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { meQuery } from '../api/session';
import { ScreenHeader } from '../ui/screen-header';
import { PasswordSection } from './account/password-section';
import { ProfileSection } from './account/profile-section';
import { SessionsSection } from './account/sessions-section';
import { TwoFactorSection } from './account/two-factor-section';

export default function AccountScreen() {
  const { data: me } = useSuspenseQuery(meQuery);
  return (
    <>
      <ScreenHeader title="Account and security" />
      <Stack gap="lg" maw={760}>
        <ProfileSection user={me.user} />
        <PasswordSection hasPassword={me.user.hasPassword} />
        <TwoFactorSection user={me.user} />
        <SessionsSection />
      </Stack>
    </>
  );
}
