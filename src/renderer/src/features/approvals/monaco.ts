/**
 * Monaco, loaded on demand (the first edit approval pays for it, start-up does not). Only the core
 * editor and the basic tokenizers: the diff needs no language services, so the one worker is the
 * editor worker (it computes diffs). Workers come from our own origin through Vite's `?worker`
 * imports, which the CSP's `worker-src 'self' blob:` allows.
 */
import * as monaco from 'monaco-editor/editor/editor.api'
import 'monaco-editor/basic-languages/monaco.contribution'
import EditorWorker from 'monaco-editor/editor/editor.worker?worker'

declare global {
  interface Window {
    MonacoEnvironment?: { getWorker(workerId: string, label: string): Worker }
  }
}

window.MonacoEnvironment = { getWorker: () => new EditorWorker() }

/** The language Monaco knows for a file name, or plain text. */
export function languageFor(filePath: string): string {
  const name = filePath.split(/[\\/]/).pop()?.toLowerCase() ?? ''
  for (const language of monaco.languages.getLanguages()) {
    if (language.filenames?.some((f) => f.toLowerCase() === name)) return language.id
    if (language.extensions?.some((ext) => name.endsWith(ext.toLowerCase()))) return language.id
  }
  return 'plaintext'
}

export { monaco }
export type Monaco = typeof monaco
