import { z } from 'zod';
import { defineEndpoint } from './endpoint';

export const announcementSchema = z.object({
  id: z.number().int(),
  content: z.string(),
  is_active: z.boolean(),
  created_at: z.string(),
});
export type Announcement = z.infer<typeof announcementSchema>;

export const getActiveAnnouncement = defineEndpoint({
  method: 'GET',
  path: '/announcements/active/',
  access: 'public',
  errors: {},
  response: z.object({ announcement: announcementSchema.nullable() }),
  summary: 'The active announcement, if any',
  tags: ['announcements'],
});

export const getLatestAnnouncement = defineEndpoint({
  method: 'GET',
  path: '/announcements/latest/',
  access: 'public',
  errors: {},
  response: z.object({ announcement: announcementSchema.nullable() }),
  summary: 'The most recently created announcement, if any',
  tags: ['announcements'],
});
