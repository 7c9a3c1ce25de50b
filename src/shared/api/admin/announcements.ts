import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { idParamsSchema, okSchema, pageQuerySchema, paginatedSchema } from '../common';
import { announcementSchema } from '../announcements';
import { ANNOUNCEMENTS_PAGE_SIZE } from '../../domain/pagination';

const contentSchema = z.string().trim().min(1).max(20_000);

export const listAdminAnnouncements = defineEndpoint({
  method: 'GET',
  path: '/admin/announcements/',
  access: 'admin',
  errors: {},
  query: pageQuerySchema(ANNOUNCEMENTS_PAGE_SIZE),
  response: paginatedSchema(announcementSchema),
  summary: 'All announcements of the tenant, newest first',
  tags: ['admin'],
});

export const createAnnouncement = defineEndpoint({
  method: 'POST',
  path: '/admin/announcements/',
  access: 'admin',
  errors: {},
  body: z.object({ content: contentSchema, is_active: z.boolean().default(true) }),
  response: announcementSchema,
  summary: 'Create an announcement; an active one deactivates all others',
  tags: ['admin'],
});

export const patchAnnouncement = defineEndpoint({
  method: 'PATCH',
  path: '/admin/announcements/:id/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  params: idParamsSchema,
  body: z.union([z.object({ content: contentSchema }).strict(), z.object({ is_active: z.boolean() }).strict()]),
  response: announcementSchema,
  summary: 'Edit the content, or switch it on (deactivating all others) or off',
  tags: ['admin'],
});

export const deleteAnnouncement = defineEndpoint({
  method: 'DELETE',
  path: '/admin/announcements/:id/',
  access: 'admin',
  errors: { 404: ['announcement_update_failed'] },
  params: idParamsSchema,
  response: okSchema,
  summary: 'Delete an announcement (404 `announcement_update_failed` when the id is missing, spec §5)',
  tags: ['admin'],
});
