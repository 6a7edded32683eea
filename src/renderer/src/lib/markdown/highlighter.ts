import type { HLJSApi, LanguageFn } from 'highlight.js'

type LanguageModule = Promise<{ default: LanguageFn }>

/**
 * highlight.js's "common" languages (node_modules/highlight.js/lib/common.js), in groups of a few,
 * the most asked-for first. Each group is its own chunk, evaluated and registered in a task of its
 * own: all of them at once were one 85 ms task at start-up (bench/startup-window.ts).
 * Literal imports, so the bundler sees them.
 */
const GROUPS: ReadonlyArray<ReadonlyArray<readonly [string, () => LanguageModule]>> = [
  [
    ['typescript', () => import('highlight.js/lib/languages/typescript')],
    ['javascript', () => import('highlight.js/lib/languages/javascript')],
    ['json', () => import('highlight.js/lib/languages/json')],
    ['bash', () => import('highlight.js/lib/languages/bash')],
    ['shell', () => import('highlight.js/lib/languages/shell')],
  ],
  [
    ['python', () => import('highlight.js/lib/languages/python')],
    ['python-repl', () => import('highlight.js/lib/languages/python-repl')],
    ['xml', () => import('highlight.js/lib/languages/xml')],
    ['css', () => import('highlight.js/lib/languages/css')],
    ['diff', () => import('highlight.js/lib/languages/diff')],
    ['yaml', () => import('highlight.js/lib/languages/yaml')],
  ],
  [
    ['markdown', () => import('highlight.js/lib/languages/markdown')],
    ['rust', () => import('highlight.js/lib/languages/rust')],
    ['go', () => import('highlight.js/lib/languages/go')],
    ['sql', () => import('highlight.js/lib/languages/sql')],
    ['plaintext', () => import('highlight.js/lib/languages/plaintext')],
  ],
  [
    ['c', () => import('highlight.js/lib/languages/c')],
    ['cpp', () => import('highlight.js/lib/languages/cpp')],
    ['csharp', () => import('highlight.js/lib/languages/csharp')],
  ],
  [
    ['java', () => import('highlight.js/lib/languages/java')],
    ['kotlin', () => import('highlight.js/lib/languages/kotlin')],
    ['swift', () => import('highlight.js/lib/languages/swift')],
    ['ini', () => import('highlight.js/lib/languages/ini')],
    ['makefile', () => import('highlight.js/lib/languages/makefile')],
  ],
  [
    ['ruby', () => import('highlight.js/lib/languages/ruby')],
    ['php', () => import('highlight.js/lib/languages/php')],
    ['php-template', () => import('highlight.js/lib/languages/php-template')],
    ['perl', () => import('highlight.js/lib/languages/perl')],
  ],
  [
    ['objectivec', () => import('highlight.js/lib/languages/objectivec')],
    ['scss', () => import('highlight.js/lib/languages/scss')],
    ['less', () => import('highlight.js/lib/languages/less')],
    ['graphql', () => import('highlight.js/lib/languages/graphql')],
  ],
  [
    ['lua', () => import('highlight.js/lib/languages/lua')],
    ['r', () => import('highlight.js/lib/languages/r')],
    ['vbnet', () => import('highlight.js/lib/languages/vbnet')],
    ['wasm', () => import('highlight.js/lib/languages/wasm')],
  ],
]

/** The languages registered once loading is done: highlight.js's "common" set. */
export const HIGHLIGHTED_LANGUAGES: readonly string[] = GROUPS.flatMap((group) => group.map(([name]) => name))

/**
 * highlight.js's core and then its languages, group by group, fetched the first time a reply has a
 * code block or by the idle warm-up. A block whose language has not arrived shows as plain text;
 * each group that arrives bumps the version, and blocks with code render once more, coloured.
 */
let highlighter: HLJSApi | undefined
let version = 0
let complete = false
let loading: Promise<void> | undefined
const listeners = new Set<() => void>()

/** The highlighter, if its core has arrived (starts fetching it otherwise). */
export function highlighterOrLoad(): HLJSApi | undefined {
  if (!highlighter) void loadHighlighter()
  return highlighter
}

/**
 * Fetches the core and every language group (once); resolves when all are registered. A failed
 * fetch is tried again next time, keeping what was registered.
 */
export function loadHighlighter(): Promise<void> {
  loading ??= loadGroups().catch((error: unknown) => {
    loading = undefined
    console.error('Code highlighting could not load; code stays plain.', error)
  })
  return loading
}

async function loadGroups(): Promise<void> {
  const hljs = highlighter ?? (await import('highlight.js/lib/core')).default
  for (const group of GROUPS) {
    const missing = group.filter(([name]) => !hljs.getLanguage(name))
    if (missing.length === 0) continue
    // A task of its own for each group, after any input or paint waiting for the main thread.
    await idle()
    const languages = await Promise.all(missing.map(async ([name, load]) => [name, (await load()).default] as const))
    for (const [name, language] of languages) hljs.registerLanguage(name, language)
    highlighter = hljs
    version++
    for (const listener of [...listeners]) listener()
  }
  complete = true
}

function idle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 1000 })
    else setTimeout(resolve, 0)
  })
}

/**
 * Counts the language groups registered so far: 0 until code can be coloured; a change means some
 * code may now colour (for `useSyncExternalStore`).
 */
export function highlighterVersion(): number {
  return version
}

/** Whether every language has been registered. */
export function highlighterReady(): boolean {
  return complete
}

/** Calls `listener` each time a group of languages arrives. */
export function onHighlighterChange(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
