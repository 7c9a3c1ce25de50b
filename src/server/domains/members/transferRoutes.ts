import { downloadMemberExport, downloadMemberUploadTemplate, startMemberExport, uploadMembers } from '../../../shared/api/admin/memberTransfer';
import { MEMBER_UPLOAD_MAX_BYTES } from '../../../shared/domain/memberTransfer';
import * as exportService from './export';
import * as uploadService from './upload';
import { registerEndpoint } from '../../routes/endpointRoute';
import { readUpload, registerMultipartRoutes, sendFile } from '../files/routes';
import { domainRoutes } from '../plugin';

/** Member export and bulk upload (issue 11); the job types are defined here, before the queue starts. */
export const memberTransferRoutes = domainRoutes('members.transfer', (app, deps) => {
  const { db } = deps;
  const exportJob = exportService.defineMemberExportJob(deps);
  const uploadJob = uploadService.defineMemberUploadJob(deps);

  registerEndpoint(app, startMemberExport, async ({ query, tenant, requireMember }) =>
    exportService.startMemberExport(deps, exportJob, tenant, requireMember(), query.format),
  );
  registerEndpoint(app, downloadMemberExport, async ({ params, tenant, requireMember, reply }) =>
    sendFile(reply, await exportService.downloadMemberExport(deps, tenant, requireMember(), params.id)),
  );
  registerEndpoint(app, downloadMemberUploadTemplate, async ({ query, tenant, reply, requireMember }) =>
    sendFile(reply, await uploadService.uploadTemplate(db, tenant, query.format, requireMember().language)),
  );
  registerMultipartRoutes(app, (scope) =>
    registerEndpoint(scope, uploadMembers, async ({ tenant, requireMember, request }) => {
      const admin = requireMember();
      const { parts } = await readUpload(request, { maxBytes: MEMBER_UPLOAD_MAX_BYTES, maxPages: 0, allowedKinds: ['xlsx', 'text'] });
      return uploadService.startMemberUpload(deps, uploadJob, tenant, admin, parts);
    }),
  );
});
