// The dashboard's entry: the theme (light/dark), TanStack Query for server state, the router, mounted on #root.
import '@mantine/core/styles.css';
import './dashboard.css';
import {
  type CSSVariablesResolver,
  createTheme,
  localStorageColorSchemeManager,
  MantineProvider,
  Modal,
} from '@mantine/core';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { isApiError } from './api/client';
import { router } from './router';

const COLOR_SCHEME_KEY = 'warden.color-scheme';
const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_KEY });
// Mantine's own script for this is inline, which the Content-Security-Policy forbids: set the scheme before the first render.
document.documentElement.setAttribute('data-mantine-color-scheme', storedColorScheme());
// The server puts a fresh nonce in this tag and in its CSP; Mantine's <style> tags must carry it.
const styleNonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? '';
// So must the <style> that modals and drawers add while they lock the page's scroll (react-remove-scroll, through
// get-nonce, which reads this global).
(globalThis as { __webpack_nonce__?: string }).__webpack_nonce__ = styleNonce;

// Mantine's default blue (shade 6) and dimmed grey fall short of WCAG AA contrast (4.5:1) for text: darker in light
// mode, lighter in dark mode.
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  // Mantine's close button of a modal has no accessible name of its own.
  components: { Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }) },
});
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  // So do its field errors' red (red 6 in light mode, red 8 in dark).
  light: {
    '--mantine-color-anchor': 'var(--mantine-color-blue-8)',
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-8)',
    '--warden-neutral-dot': 'var(--mantine-color-gray-filled)',
  },
  dark: {
    '--mantine-color-anchor': 'var(--mantine-color-blue-3)',
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
    // The unknown and paused dot: gray "filled" (gray 8) is next to nothing on the dark page.
    '--warden-neutral-dot': 'var(--mantine-color-gray-5)',
  },
});

const queryClient = new QueryClient({
  queryCache: new QueryCache({
    // A session that ends while a screen is open (expired, signed out elsewhere): back to sign in, then here again.
    onError: (error) => {
      if (!isApiError(error, 401) || !router.state.matches.some((m) => m.routeId.startsWith('/signed-in'))) return;
      void router.navigate({ to: '/login', search: { next: router.state.location.href } });
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      // Retry what may pass next time (network, 5xx), never a refusal.
      retry: (count, error) => count < 2 && (!isApiError(error) || error.status === 0 || error.status >= 500),
    },
  },
});

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
      cssVariablesResolver={cssVariablesResolver}
      getStyleNonce={() => styleNonce}
    >
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} context={{ queryClient }} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);

function storedColorScheme(): 'light' | 'dark' {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(COLOR_SCHEME_KEY);
  } catch {
    // Storage off: follow the system.
  }
  if (stored === 'light' || stored === 'dark') return stored;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}
