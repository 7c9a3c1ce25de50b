import { loadAllNamespaces } from '../i18n';

/**
 * A screen's code in its own chunk, ready to show: its strings (i18n) and the error messages of
 * its calls (api/errorCatalog) arrive with it, so it never shows raw keys. For lazy routes
 * (router.tsx) and the parts of a first-screen page loaded on demand (the sign-in page's SSO).
 */
export async function loadScreenModule<Module>(load: () => Promise<Module>): Promise<Module> {
  const [module] = await Promise.all([load(), loadAllNamespaces(), import('../api/errorCatalog')]);
  return module;
}
