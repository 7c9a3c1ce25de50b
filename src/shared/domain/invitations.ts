/**
 * Rows per `POST /admin/invitations/bulk/` call when the console invites many people (spec §5: bulk
 * invite works in batches; the size is not shown). Each row writes an invitation and a mail with a
 * hashed temporary password, so a batch stays a short request; the server takes up to
 * INVITATION_REQUEST_MAX rows in one call.
 */
export const INVITATION_BATCH_SIZE = 100;

/** Most rows one bulk invitation request takes. */
export const INVITATION_REQUEST_MAX = 500;
