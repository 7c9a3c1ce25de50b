import { useEffect } from 'react';
import { useTenant } from '../api/tenant';

/**
 * Names the page in the browser tab and for screen readers (WCAG 2.4.2): "page · tenant", or the
 * page alone until the tenant is known. Every routed page calls it with its translated name.
 */
export function useDocumentTitle(page: string | null | undefined): void {
  const tenantName = useTenant().data?.tenant_name;
  useEffect(() => {
    if (!page) return;
    document.title = tenantName ? `${page} · ${tenantName}` : page;
  }, [page, tenantName]);
}
