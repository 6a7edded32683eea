import { createRequire } from 'node:module'
import type { Parser } from 'web-tree-sitter'

/**
 * One shared tree-sitter parser for bash. `initBashParser()` loads web-tree-sitter and the wasm
 * once (tens of ms), when the first command is judged — not at start-up, so `sous -p` reaches its
 * first request without it; after that, parsing is synchronous and fast.
 */
let ready: Promise<Parser> | undefined
let parser: Parser | undefined

/** Loads web-tree-sitter and the bash grammar once; later calls return the same promise. */
export function initBashParser(): Promise<Parser> {
  ready ??= (async () => {
    const require = createRequire(import.meta.url)
    const { Language, Parser } = await import('web-tree-sitter')
    await Parser.init()
    const wasm = require.resolve('tree-sitter-bash/tree-sitter-bash.wasm')
    const language = await Language.load(wasm)
    const instance = new Parser()
    instance.setLanguage(language)
    parser = instance
    return instance
  })()
  return ready
}

/** The parser if {@link initBashParser} has finished, else undefined. */
export function bashParserIfReady(): Parser | undefined {
  return parser
}
