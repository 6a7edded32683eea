import type { Plugin } from 'vite'

/** The placeholder `src/renderer/src/lib/monaco-preload.ts` holds until the build names Monaco's chunks. */
export const MONACO_CHUNKS_PLACEHOLDER = '__SOUS_MONACO_CHUNKS__'

/** The modules `lib/monaco.ts` imports whose chunks the idle warm-up fetches (the editor and its languages' registry). */
const MONACO_ENTRIES = ['/monaco-editor/esm/vs/editor/editor.api.js', '/monaco-editor/esm/vs/basic-languages/monaco.contribution.js']

interface ChunkLike {
  type: 'chunk'
  fileName: string
  /** Every module bundled in it (Monaco's editor is not any chunk's facade: its languages' registry imports it). */
  moduleIds: string[]
  imports: string[]
  code: string
}

/**
 * Writes the file names of Monaco's chunks (the chunk holding each entry and every chunk it imports
 * statically, comma-separated, relative to the assets folder) into the renderer chunk that holds
 * {@link MONACO_CHUNKS_PLACEHOLDER}, so the window can fetch and compile them at idle
 * (`<link rel=modulepreload>`) without evaluating them: evaluating Monaco at idle was the longest
 * task of the window's start (issue 30). A build where the placeholder or an entry is not found
 * fails, so the warm-up cannot silently stop fetching anything. The holder's file name keeps the hash
 * of its code before the names went in: at worst a stale copy preloads names that are gone, which
 * costs a 404 and no more (`loadMonaco` imports the real ones).
 */
export function monacoPreload(): Plugin {
  return {
    name: 'sous-monaco-preload',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((output): output is typeof output & ChunkLike => output.type === 'chunk')
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]))
      const files = new Set<string>()
      const add = (chunk: ChunkLike): void => {
        if (files.has(chunk.fileName)) return
        files.add(chunk.fileName)
        for (const name of chunk.imports) {
          const imported = byName.get(name)
          if (imported) add(imported)
        }
      }
      for (const entry of MONACO_ENTRIES) {
        const chunk = chunks.find((candidate) => candidate.moduleIds.some((id) => id.replaceAll('\\', '/').endsWith(entry)))
        if (!chunk) this.error(`no chunk of the renderer build is Monaco's ${entry}`)
        add(chunk)
      }
      const holders = chunks.filter((chunk) => chunk.code.includes(MONACO_CHUNKS_PLACEHOLDER))
      if (holders.length !== 1) this.error(`${holders.length} chunks hold ${MONACO_CHUNKS_PLACEHOLDER} (one should: lib/monaco-preload.ts)`)
      const holder = holders[0]!
      const folder = holder.fileName.slice(0, holder.fileName.lastIndexOf('/') + 1)
      const relative = [...files].map((file) => (file.startsWith(folder) ? file.slice(folder.length) : this.error(`Monaco's chunk ${file} is not beside ${holder.fileName}`)))
      holder.code = holder.code.replace(MONACO_CHUNKS_PLACEHOLDER, relative.join(','))
    },
  }
}
