import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminAuditLogApi } from '../../../shared/api';
import type { AuditLogQuery } from '../../../shared/api/admin/auditLog';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

/** The console's audit log (read only). */
export function useAuditLog(query: AuditLogQuery) {
  return useQuery({
    queryKey: queryKeys.auditLog(query),
    queryFn: () => callEndpoint(adminAuditLogApi.listAuditLog, { query }),
    placeholderData: keepPreviousData,
  });
}
