import { DEFAULT_ESIGN_URL } from '../../../contract/admin';
import { useAppConfig } from '../../hooks/use-app-config';

export { DEFAULT_ESIGN_URL };

/**
 * Where eSign sends a generated document: the `esign.url` system setting, served by
 * GET /api/app-config, with the contract's default while it loads or if it fails.
 */
export function useEsignUrl(): string {
  const config = useAppConfig();
  const url = config.data?.esignUrl?.trim();
  return url && /^https?:\/\//i.test(url) ? url : DEFAULT_ESIGN_URL;
}
