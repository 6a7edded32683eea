/**
 * Monaco's chunks, comma-separated and relative to this chunk; the build writes them in
 * (`scripts/monaco-preload-plugin.ts`). Read through a function so a minifier cannot fold the
 * placeholder's own text into the code before the build replaces it.
 */
const chunks = (): string[] => '__SOUS_MONACO_CHUNKS__'.split(',')

let preloaded = false

/**
 * Fetches and compiles Monaco's chunks without evaluating them (`<link rel=modulepreload>`), for
 * an idle moment: its first use (`loadMonaco`) then pays only the evaluation, not the download.
 * Evaluating it at idle instead was the longest task of the window's start (90–300 ms, issue 30),
 * and a person typing into the composer then would feel it. Once per page; nothing in development,
 * where the dev server serves Monaco module by module.
 */
export function preloadMonaco(): void {
  if (preloaded || import.meta.env.DEV) return
  preloaded = true
  for (const file of chunks()) {
    const link = document.createElement('link')
    link.rel = 'modulepreload'
    link.href = new URL(file, import.meta.url).href
    document.head.append(link)
  }
}
