import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('./src/web', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/web', import.meta.url));
const apiTarget = `http://localhost:${process.env.API_PORT ?? 5001}`;

/**
 * The page's text font starts downloading with the HTML, not after the CSS that names it: the
 * text then paints once in Inter instead of shifting from the fallback (layout shift on phones).
 *
 * And Inter is `font-display: optional`, not the `swap` its package declares: a font that arrives
 * after the first paint is kept for the next page instead of swapped in, because swapping restyles
 * and lays out the whole page again, a task of 100–300 ms on a phone just after it first paints.
 * The text meanwhile is in the fallback sized to Inter's metrics (index.css), so it looks the same.
 */
function textFont(): Plugin {
  return {
    name: 'formwork:text-font',
    apply: 'build',
    // After Tailwind has compiled the stylesheet (with the package's faces in it), before the
    // file is named by its content.
    transform(code, id) {
      if (!/[\\/]src[\\/]web[\\/]index\.css$/.test(id)) return undefined;
      const interFaces = /(@font-face\s*\{\s*font-family:\s*['"]?Inter Variable['"]?;[^}]*?font-display:\s*)swap/g;
      let changed = 0;
      const optional = code.replace(interFaces, (_face, head: string) => (changed++, `${head}optional`));
      if (changed === 0) throw new Error('No Inter @font-face with font-display: swap was found in index.css: the text font would swap in late.');
      return { code: optional, map: null };
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const font = Object.values(ctx.bundle ?? {}).find((file) => /inter-latin-wght-normal-.*\.woff2$/.test(file.fileName));
        if (!font) throw new Error('The Latin Inter font was not found in the build; the preload would point nowhere.');
        return [{ tag: 'link', attrs: { rel: 'preload', as: 'font', type: 'font/woff2', href: `/${font.fileName}`, crossorigin: '' }, injectTo: 'head' }];
      },
    },
  };
}

// The SPA lives in src/web and builds to dist/web, which the server serves in production.
export default defineConfig({
  root,
  publicDir: fileURLToPath(new URL('./src/web/public', import.meta.url)),
  plugins: [react(), tailwindcss(), textFont()],
  build: {
    outDir,
    emptyOutDir: true,
    // The server sends a strict CSP (script-src 'self'): never inline scripts or the preload polyfill.
    modulePreload: {
      polyfill: false,
      // A lazy page's imports are preloaded by links the loader adds when the page is asked for.
      // The dashboard is asked for while the app draws on a phone, where its twenty links held
      // the main thread for 100 ms: its chunk names its imports, and the browser fetches them
      // as soon as it has read it.
      resolveDependencies: (filename, deps) => (/(^|\/)dashboard-page-[\w-]+\.js$/.test(filename) ? [] : deps),
    },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The app's start (main.tsx, which boot.ts loads once the page has painted) and all it
          // imports stay one file, as they were when it was the entry: split by which lazy pages
          // share them, they would be dozens of small requests before the first render.
          // Vite's loader for lazy code stays apart: boot.ts needs it before main.tsx runs.
          groups: [
            { name: 'preload-helper', test: /vite[\\/]preload-helper/, priority: 1 },
            // React and its DOM renderer, which boot.ts starts a task ahead of the app's code.
            { name: 'react-dom', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 1 },
            { name: 'main', test: /[\\/]src[\\/]web[\\/]main\.tsx$/ },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/healthz': { target: apiTarget, changeOrigin: false },
    },
  },
  preview: { port: 4173 },
});
