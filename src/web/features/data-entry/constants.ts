import { useQuery } from '@tanstack/react-query';
import { DEFAULT_ESIGN_URL, type TAppConfig } from '../../../contract/admin';

export { DEFAULT_ESIGN_URL };

/**
 * Where eSign sends a generated document: the `esign.url` system setting, served by
 * GET /api/app-config, with the contract's default while it loads or if it fails.
 */
export function useEsignUrl(): string {
  const config = useQuery<TAppConfig>({ queryKey: ['/api/app-config'] });
  const url = config.data?.esignUrl?.trim();
  return url && /^https?:\/\//i.test(url) ? url : DEFAULT_ESIGN_URL;
}
