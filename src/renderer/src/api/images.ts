import { useQuery } from '@tanstack/react-query';
import { ApiError, apiErrorFromResponse, isReportedStatus } from '../../../shared/api';
import { getPlatform } from '../platform';
import { resolveServerUrl } from './client';
import { reportFailure } from './errorReporter';
import { queryKeys } from './queryKeys';

/** The download operation an image URL names, for failure reports (the files contract's `GET /files/{id}/`). */
const FILE_DOWNLOAD = { method: 'GET', path: '/files/:id/' } as const;

/**
 * The bytes of a generated image (a file URL the server gave), fetched with the member's
 * credentials: an <img src> could not send the access token, and on desktop the request goes
 * through main like every other call. 5xx and network failures are reported like any call's.
 */
export async function fetchImage(url: string): Promise<Blob> {
  const absolute = await resolveServerUrl(url);
  const report = (error: ApiError, response: Response | null) => reportFailure({ endpoint: FILE_DOWNLOAD, url: absolute, requestBody: undefined, error, response });
  let response: Response;
  try {
    response = await getPlatform().fetch(new Request(absolute));
  } catch (cause) {
    const error = new ApiError(0, null, cause instanceof Error ? cause.message : String(cause));
    report(error, null);
    throw error;
  }
  if (!response.ok) {
    const error = await apiErrorFromResponse(response.clone());
    if (isReportedStatus(response.status)) report(error, response);
    throw error;
  }
  return response.blob();
}

/** An image kept for the page's life once loaded: it never changes. */
export function useImage(url: string) {
  return useQuery({ queryKey: queryKeys.image(url), queryFn: () => fetchImage(url), staleTime: Infinity });
}
