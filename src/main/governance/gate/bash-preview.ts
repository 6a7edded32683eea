import { homedir } from 'node:os'
import type { BashInspection, BashTraits } from '../../tools/bash'
import { analyzeBash, bashAnalyzerIfReady, loadBashAnalyzer } from '../bash/analyzer'
import type { BashAnalysis } from '../bash/types'

/** Where commands are judged: the project, extra roots, and the home for `~`. */
export interface BashWhere {
  projectRoot: string
  /** The Bash tool's current directory (it persists per session); default the project root. */
  cwd?: () => string
  additionalDirectories?: () => string[]
  home?: string
}

/** What the Bash tool gets from governance: traits for batching and facts for the approval preview. */
export interface BashClassifier {
  classify(command: string): BashTraits
  inspect(command: string, cwd: string): Promise<BashInspection>
}

/**
 * Builds the Bash tool's classifier over the syntax tree. The analyzer and its parser load on the first command
 * (not with the session, so a turn without Bash never pays for it); `classify` answers
 * synchronously, and until they are ready (or for anything it cannot parse cleanly) a command
 * is neither read-only nor concurrency-safe (fail closed). `inspect` waits for them.
 */
export async function createBashClassifier(where: BashWhere): Promise<BashClassifier> {
  const analyzeOptions = (cwd?: string) => ({
    cwd: cwd ?? where.cwd?.() ?? where.projectRoot,
    projectRoot: where.projectRoot,
    additionalDirectories: where.additionalDirectories?.() ?? [],
    home: where.home ?? homedir(),
  })
  return {
    classify(command) {
      const analyzer = bashAnalyzerIfReady()
      if (!analyzer) {
        // A load that fails is seen again where a decision awaits it (`inspect`, the gate).
        loadBashAnalyzer().catch(() => undefined)
        return { readOnly: false, concurrencySafe: false }
      }
      const readOnly = analyzer.analyzeBashSync(command, analyzeOptions()).readOnly
      // Only commands that change nothing may run beside others.
      return { readOnly, concurrencySafe: readOnly }
    },
    async inspect(command, cwd) {
      return inspectionOf(await analyzeBash(command, analyzeOptions(cwd)))
    },
  }
}

/** The approval preview's view of an analysis: the split commands, touched paths and problems. */
export function inspectionOf(analysis: BashAnalysis): BashInspection {
  const problems = [...analysis.problems, ...analysis.critical.filter((critical) => !analysis.problems.includes(critical))]
  return {
    commands: analysis.commands.filter((command) => command.argv.length > 0).map((command) => command.text),
    paths: analysis.paths
      .filter((path) => !path.exempt)
      .map((path) => ({ path: path.resolved || path.path, write: path.write, inside: path.inside, ...(path.real && path.real !== path.resolved ? { realPath: path.real } : {}) })),
    writesOutside: analysis.writesOutside,
    problems,
  }
}
