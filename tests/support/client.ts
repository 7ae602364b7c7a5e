// The API client lives in scripts/lib, where the benchmark can use it too; tests import it from here.
export { allPages, ApiClient, type ApiResponse, signUpUser } from '../../scripts/lib/client.ts';
