import type * as Monaco from 'monaco-editor/editor/editor.api'

/**
 * Monaco, loaded on first use (it is large; the window must not wait for it) with its editor
 * worker bundled by Vite and syntax colouring for the common languages. Shared by every feature
 * that shows code (the file viewer, approvals' diffs), so the environment is set up once.
 */
let loading: Promise<typeof Monaco> | undefined

export function loadMonaco(): Promise<typeof Monaco> {
  loading ??= (async () => {
    const [monaco, { default: EditorWorker }] = await Promise.all([
      import('monaco-editor/editor/editor.api'),
      import('monaco-editor/editor/editor.worker?worker'),
      import('monaco-editor/basic-languages/monaco.contribution'),
      // The icon font of the diff gutter, folding and widgets (editor.api alone leaves it out: boxes).
      import('monaco-editor/features/codicon/register'),
    ])
    // Every language here is colouring only, so the plain editor worker serves every label.
    ;(self as unknown as { MonacoEnvironment: Monaco.Environment }).MonacoEnvironment = {
      getWorker: () => new EditorWorker(),
    }
    return monaco
  })()
  // A failed load (a chunk that did not arrive) is not kept: the next caller tries again.
  loading.catch(() => {
    loading = undefined
  })
  return loading
}

/** Monaco's language id for a file name, by extension ('plaintext' when unknown). */
export function languageFor(monaco: typeof Monaco, fileName: string): string {
  const dot = fileName.lastIndexOf('.')
  const ext = dot === -1 ? '' : fileName.slice(dot).toLowerCase()
  const base = fileName.slice(fileName.lastIndexOf('/') + 1).toLowerCase()
  for (const language of monaco.languages.getLanguages()) {
    if (language.extensions?.includes(ext) || language.filenames?.map((f) => f.toLowerCase()).includes(base))
      return language.id
  }
  return 'plaintext'
}
