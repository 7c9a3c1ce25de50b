import { createContext, useCallback, useContext, useEffect, useId, useRef, type CSSProperties, type MouseEvent, type ReactNode, type RefObject } from 'react';
import { AppShell, Burger, Group, Overlay, rem, type AppShellMainProps, type AppShellNavbarProps } from '@mantine/core';
import { useDisclosure, useFocusReturn, useFocusTrap, useMergedRef, useWindowEvent } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { MAIN_CONTENT_ID } from './mainContent';
import { useBelowBreakpoint } from './useBelowBreakpoint';
import { NAV_BAR_WIDTH_PX } from '../../../shared/domain/ui';
import classes from './SideNav.module.css';

/**
 * Below this breakpoint (sm = 768px, the spec's tablet width) the side navigation is a drawer
 * behind a menu button in a top bar; from it up the navigation sits beside the page.
 */
const DRAWER_BELOW = 'sm';
const TOP_BAR_HEIGHT_PX = 52;
/** The drawer keeps a strip of the page visible, so it reads as a panel over the page. */
const DRAWER_WIDTH = `min(${rem(NAV_BAR_WIDTH_PX)}, calc(100vw - ${rem(56)}))`;

interface DrawerState {
  navId: string;
  /** True below the breakpoint, where the navigation is a drawer. */
  isDrawer: boolean;
  opened: boolean;
  /** Opens the drawer; `then` runs once it is open and the focus trap has placed the focus. */
  open: (then?: () => void) => void;
  close: () => void;
  /** What `open` was asked to do once the drawer is open. */
  afterOpen: RefObject<(() => void) | null>;
  headerRef: RefObject<HTMLElement | null>;
  brand: ReactNode;
}

const DrawerContext = createContext<DrawerState | null>(null);

/**
 * The drawer of the `SideNavShell` around the caller, for what lives in its navigation (null
 * outside one): whether the navigation is a drawer, is open, and a way to open it.
 */
export function useSideNavDrawer(): Pick<DrawerState, 'isDrawer' | 'opened' | 'open'> | null {
  return useContext(DrawerContext);
}

function useDrawer(): DrawerState {
  const state = useContext(DrawerContext);
  if (!state) throw new Error('SideNavbar is used outside SideNavShell');
  return state;
}

interface SideNavShellProps {
  /** The side navigation: a `SideNavbar`. */
  navbar: ReactNode;
  /** Logo or name: atop the navigation, or in the top bar beside the menu button on small screens. */
  brand: ReactNode;
  mainProps?: AppShellMainProps;
  children: ReactNode;
}

/**
 * The dashboard's and the admin console's frame: a side navigation beside the page, or on small
 * screens a top bar whose menu button opens the navigation as a drawer over the page (backdrop,
 * Esc, focus kept inside while open and given back to the menu button on close).
 */
export function SideNavShell({ navbar, brand, mainProps, children }: SideNavShellProps) {
  const { t } = useTranslation('common');
  const isDrawer = useBelowBreakpoint(DRAWER_BELOW);
  const [opened, { toggle, open: openDrawer, close }] = useDisclosure(false);
  const afterOpen = useRef<(() => void) | null>(null);
  const open = useCallback(
    (then?: () => void) => {
      afterOpen.current = then ?? null;
      openDrawer();
    },
    [openDrawer],
  );
  const navId = useId();
  const headerRef = useRef<HTMLElement>(null);
  const drawerOpen = isDrawer && opened;
  useFocusReturn({ opened: drawerOpen });

  // Widening the window past the breakpoint puts the navigation beside the page: no drawer left open.
  useEffect(() => {
    if (!isDrawer) close();
  }, [isDrawer, close]);

  return (
    <DrawerContext.Provider value={{ navId, isDrawer, opened: drawerOpen, open, close, afterOpen, headerRef, brand }}>
      <AppShell
        header={{ height: { base: TOP_BAR_HEIGHT_PX, [DRAWER_BELOW]: 0 } }}
        navbar={{ width: NAV_BAR_WIDTH_PX, breakpoint: DRAWER_BELOW, collapsed: { mobile: !opened } }}
        padding={0}
        // Read by toast.module.css: toasts are centred over the page beside the navigation.
        data-side-nav={isDrawer ? 'drawer' : 'beside'}
      >
        <AppShell.Header ref={headerRef} hiddenFrom={DRAWER_BELOW} className={classes.topBar}>
          <Group h="100%" px="sm" gap="sm" wrap="nowrap">
            <Burger
              opened={drawerOpen}
              onClick={toggle}
              size="sm"
              aria-label={t('navigation.menu')}
              aria-expanded={drawerOpen}
              aria-controls={navId}
              data-testid="nav-menu-button"
            />
            <div className={classes.topBarBrand}>{brand}</div>
          </Group>
        </AppShell.Header>
        {navbar}
        {drawerOpen && <Overlay fixed zIndex={99} backgroundOpacity={0.4} onClick={close} data-testid="nav-backdrop" />}
        <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1} {...mainProps} className={`${classes.main} ${mainProps?.className ?? ''}`} inert={drawerOpen}>
          {children}
        </AppShell.Main>
      </AppShell>
    </DrawerContext.Provider>
  );
}

/**
 * The side navigation of a `SideNavShell`, under the shell's brand. As a drawer it traps focus,
 * closes on Esc and on any link chosen in it, and is hidden from keyboard and screen readers while
 * closed.
 */
export function SideNavbar({ className, children, ...props }: Omit<AppShellNavbarProps, 'id' | 'style' | 'onClick'>) {
  const { navId, isDrawer, opened, close, afterOpen, headerRef, brand } = useDrawer();
  const navRef = useRef<HTMLElement>(null);
  const trapRef = useFocusTrap(opened);
  const ref = useMergedRef(navRef, trapRef);

  // After the trap's first focus (its timer is set before this one), what opened the drawer moves it.
  useEffect(() => {
    const then = afterOpen.current;
    if (!opened || !then) return;
    afterOpen.current = null;
    const timer = setTimeout(then);
    return () => clearTimeout(timer);
  }, [opened, afterOpen]);

  useWindowEvent('keydown', (event) => {
    if (!opened || event.key !== 'Escape') return;
    // Esc inside a menu or dialog opened from the drawer closes that, not the drawer.
    const target = event.target as Node;
    if (target === document.body || navRef.current?.contains(target) || headerRef.current?.contains(target)) close();
  });

  const closeOnLink = (event: MouseEvent<HTMLElement>) => {
    const target = event.target as Element;
    if (isDrawer && event.currentTarget.contains(target) && target.closest('a[href]')) close();
  };

  return (
    <AppShell.Navbar
      {...props}
      ref={ref}
      id={navId}
      className={`${classes.navbar} ${className ?? ''}`}
      style={isDrawer ? ({ '--app-shell-navbar-width': DRAWER_WIDTH } as CSSProperties) : undefined}
      data-drawer={isDrawer ? (opened ? 'open' : 'closed') : undefined}
      onClick={closeOnLink}
    >
      {/* Not rendered rather than hidden by CSS: the focus trap would pick a hidden first link. */}
      {!isDrawer && (
        <AppShell.Section px={6} pt={4} pb="md">
          {brand}
        </AppShell.Section>
      )}
      {children}
    </AppShell.Navbar>
  );
}
