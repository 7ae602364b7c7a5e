import { ApiClient } from '../../scripts/lib/client.ts';

// The API client lives in scripts/lib, where the benchmark can use it too; tests import it from here.
export { allPages, ApiClient, type ApiResponse, signUpUser } from '../../scripts/lib/client.ts';

/** A client for another instance (`baseUrl`) with `client`'s cookies: the same session, as behind a balancer. */
export function sameSessionOn(baseUrl: string, client: ApiClient): ApiClient {
  const copy = new ApiClient(baseUrl);
  for (const [name, value] of client.cookies) copy.cookies.set(name, value);
  return copy;
}
