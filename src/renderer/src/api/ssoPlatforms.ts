import { useQuery } from '@tanstack/react-query';
import { listSsoPlatforms } from '../../../shared/api/ssoPlatforms';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

/** The tenant's SSO platforms for the sign-in page (first screen: this module stays this small). */
export function useSsoPlatforms() {
  return useQuery({ queryKey: queryKeys.ssoPlatforms, queryFn: () => callEndpoint(listSsoPlatforms), staleTime: 5 * 60_000 });
}
