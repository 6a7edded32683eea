import { createRequire } from 'node:module'
import { Language, Parser } from 'web-tree-sitter'

/**
 * One shared tree-sitter parser for bash. `initBashParser()` loads the wasm once (tens of ms);
 * after that, parsing is synchronous and fast.
 */
let ready: Promise<Parser> | undefined
let parser: Parser | undefined

/** Loads web-tree-sitter and the bash grammar once; later calls return the same promise. */
export function initBashParser(): Promise<Parser> {
  ready ??= (async () => {
    const require = createRequire(import.meta.url)
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
