import { config } from 'zod';

/*
 * The page's Content-Security-Policy forbids eval, so zod's compiled parsers can never run here.
 * Said up front, zod does not try `new Function` on its first parse, which the browser refuses and
 * reports as a CSP violation. Imported first by main.tsx, before any schema parses.
 */
config({ jitless: true });
