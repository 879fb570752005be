import { preloadableLazy } from '../../lib/preloadable-lazy';

/**
 * The starter gallery as the dashboard shows it: its code (the starter formats themselves) loads
 * beside the dashboard's own, as a second script evaluation rather than one long one that holds
 * a phone's main thread (app.tsx preloads both before the dashboard draws).
 */
export const StarterGallery = preloadableLazy(() => import('./starter-gallery').then((m) => m.StarterGallery));
