/**
 * Which TTF files the baselines embed. They must be the same files our renderer embeds for the
 * reference formats, so the comparison is like for like.
 *
 * Resolution order per role: the font packages our renderer uses (in node_modules), then the
 * Debian system fonts (only as a fallback while developing; the run prints which file it used).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type FontRole = 'sans' | 'sansBold' | 'devanagari' | 'arabic';

const ROOT = resolve(import.meta.dirname, '../..');
const NM = join(ROOT, 'node_modules');

/** [package dir under node_modules, file-name pattern] candidates, best first. */
const CANDIDATES: Record<FontRole, [string, RegExp][]> = {
  sans: [
    ['@expo-google-fonts/arimo', /^Arimo_400Regular\.ttf$/],
    ['@fontsource/arimo', /arimo.*400-normal\.ttf$/],
  ],
  sansBold: [['@expo-google-fonts/arimo', /^Arimo_700Bold\.ttf$/]],
  devanagari: [['@expo-google-fonts/noto-sans-devanagari', /^NotoSansDevanagari_400Regular\.ttf$/]],
  arabic: [
    ['@expo-google-fonts/noto-naskh-arabic', /^NotoNaskhArabic_400Regular\.ttf$/],
    ['@expo-google-fonts/noto-sans-arabic', /^NotoSansArabic_400Regular\.ttf$/],
  ],
};

const SYSTEM: Record<FontRole, string[]> = {
  sans: ['/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf'],
  sansBold: ['/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf'],
  devanagari: [],
  arabic: ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'],
};

function findIn(dir: string, pattern: RegExp, depth = 3): string | null {
  if (!existsSync(dir) || depth < 0) return null;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isFile() && pattern.test(e.name)) return p;
    if (e.isDirectory() && e.name !== 'node_modules') {
      const r = findIn(p, pattern, depth - 1);
      if (r) return r;
    }
  }
  return null;
}

export function fontPath(role: FontRole): string {
  for (const [pkg, pattern] of CANDIDATES[role]) {
    const p = findIn(join(NM, pkg), pattern);
    if (p) return p;
  }
  for (const p of SYSTEM[role]) if (existsSync(p)) return p;
  throw new Error(`bench: no TTF found for the ${role} font`);
}

export function fontPaths(): Record<FontRole, string> {
  return {
    sans: fontPath('sans'),
    sansBold: fontPath('sansBold'),
    devanagari: fontPath('devanagari'),
    arabic: fontPath('arabic'),
  };
}
