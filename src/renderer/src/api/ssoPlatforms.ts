import { listSsoPlatforms } from '../../../shared/api/ssoPlatforms';
import { useEndpointQuery } from './endpointHooks';

/** The tenant's SSO platforms for the sign-in page and the account page; they rarely change (first screen: this module stays this small). */
export function useSsoPlatforms() {
  return useEndpointQuery(listSsoPlatforms, {}, { staleTime: 5 * 60_000 });
}
