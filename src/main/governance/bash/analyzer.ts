import type * as AnalyzerParts from './analyzer-parts'
import { initBashParser } from './parser'
import type { AnalyzeOptions, BashAnalysis } from './types'

/**
 * The seam in front of the Bash analyzer. The analyzer (`analyzer-parts.ts`: the tree walk, the
 * command specs, the wrapper tables) is imported together with the tree-sitter parser, which
 * always loaded on first use: a command is never judged before both are in, so no decision
 * changes, and a run that judges no command loads neither.
 *
 * Contract: {@link bashAnalyzerIfReady} is set exactly when the parser is ready too, so a caller
 * that finds it may analyse synchronously. A caller holding a {@link BashAnalysis} got it from the
 * analyzer, so {@link bashAnalyzer} cannot fail for it.
 */
export type BashAnalyzer = typeof AnalyzerParts

let ready: Promise<BashAnalyzer> | undefined
let loaded: BashAnalyzer | undefined

/** Loads the analyzer and the parser once; later calls return the same promise. */
export function loadBashAnalyzer(): Promise<BashAnalyzer> {
  ready ??= Promise.all([import('./analyzer-parts'), initBashParser()]).then(([parts]) => (loaded = parts))
  return ready
}

/** The analyzer if {@link loadBashAnalyzer} has finished, else undefined. */
export function bashAnalyzerIfReady(): BashAnalyzer | undefined {
  return loaded
}

/**
 * The loaded analyzer, for code that works on an analysis (rule matching, the decision's
 * defaults): it can only hold one once the analyzer has loaded. Throws otherwise (a bug).
 */
export function bashAnalyzer(): BashAnalyzer {
  if (!loaded) throw new Error('the Bash analyzer is used before loadBashAnalyzer() finished')
  return loaded
}

/** Analyses a bash command string; loads the analyzer and the parser on first use. */
export async function analyzeBash(command: string, opts: AnalyzeOptions): Promise<BashAnalysis> {
  return (await loadBashAnalyzer()).analyzeBashSync(command, opts)
}
