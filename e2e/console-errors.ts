/**
 * The browser's own console line for a request the server turned away as busy: a generation
 * answered 503 with Retry-After when the machine is loaded, as a journey's two-core machine often
 * is. The app sends such a request again by itself (src/web/lib/api.ts), so the line is no error of
 * the page's; what the journey checks next (the preview, the document) shows that the retry worked.
 */
export const isBusyRetry = (text: string): boolean => text.includes('the server responded with a status of 503 (Service Unavailable)');
