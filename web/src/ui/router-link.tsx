// Mantine's NavLink and Anchor as TanStack Router links: typed `to`, client-side navigation, aria-current on the active one.
import { Anchor, type AnchorProps, NavLink, type NavLinkProps } from '@mantine/core';
import { createLink } from '@tanstack/react-router';
import type { ComponentPropsWithRef } from 'react';

type AnchorElementProps = Omit<ComponentPropsWithRef<'a'>, 'color' | 'style'>;

function NavAnchor(props: NavLinkProps & AnchorElementProps) {
  return <NavLink component="a" {...props} active={props['aria-current'] === 'page'} />;
}

function TextAnchor(props: AnchorProps & AnchorElementProps) {
  return <Anchor component="a" {...props} />;
}

export const RouterNavLink = createLink(NavAnchor);
export const RouterAnchor = createLink(TextAnchor);
