import { useQuery } from '@tanstack/react-query';
import { apiErrorFromResponse } from '../../../shared/api';
import { getPlatform } from '../platform';
import { resolveServerUrl } from './client';
import { queryKeys } from './queryKeys';

/**
 * The bytes of a generated image (a file URL the server gave), fetched with the member's
 * credentials: an <img src> could not send the access token, and on desktop the request goes
 * through main like every other call.
 */
export async function fetchImage(url: string): Promise<Blob> {
  const response = await getPlatform().fetch(new Request(await resolveServerUrl(url)));
  if (!response.ok) throw await apiErrorFromResponse(response);
  return response.blob();
}

/** An image kept for the page's life once loaded: it never changes. */
export function useImage(url: string) {
  return useQuery({ queryKey: queryKeys.image(url), queryFn: () => fetchImage(url), staleTime: Infinity });
}
