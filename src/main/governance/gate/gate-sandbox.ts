import { statSync } from 'node:fs'
import { join } from 'node:path'
import { projectDataDir } from '../../base/paths'
import { walkTree } from '../../base/walk-tree'
import type { BashSandboxState } from '../../tools/bash-sandbox'
import { compilePathPattern } from '../rules/path-pattern'
import { BashSandbox, type BashSandboxOptions } from '../sandbox/bash-sandbox'
import type { MergedSettings } from '../settings/types'

/** Options of {@link startBashSandbox}. */
export interface StartSandboxOptions {
  projectRoot: string
  sousHome: string
  home?: string
  /** Asked about hosts outside the allowed domains; without it they are refused. */
  askNetwork?: BashSandboxOptions['askNetwork']
}

/**
 * The sandbox a project's settings describe: its folder and extra directories writable, credential
 * files and every project's data in the Sous home hidden (`sandbox.filesystem.allowRead` re-opens), every settings file (and the trust file) write-protected so a sandboxed program
 * cannot grant itself permissions, and the allowed and denied domains.
 */
export function sandboxOptionsFor(settings: MergedSettings, options: Pick<StartSandboxOptions, 'projectRoot' | 'sousHome' | 'home'>): BashSandboxOptions {
  const wanted = settings.sandbox
  return {
    projectRoot: options.projectRoot,
    home: options.home,
    sousHome: options.sousHome,
    // The session reads its own saved tool results anyway (governance's readable roots).
    allowRead: [...wanted.allowRead, join(projectDataDir(options.sousHome, options.projectRoot), 'tool-results')],
    allowedDomains: wanted.allowedDomains,
    deniedDomains: wanted.deniedDomains,
    // The Read deny rules hold inside the sandbox too: a program, or a link it follows, reads nothing they cover.
    denyRead: [...wanted.denyRead, ...readDenyPatterns(settings, options.projectRoot)],
    allowWrite: [...wanted.allowWrite, ...settings.additionalDirectories],
    denyWrite: wanted.denyWrite,
    // Every settings file, so a sandboxed program cannot grant itself permissions.
    protectFiles: [...settings.settingsFiles, join(options.sousHome, 'settings.json')],
    // What the obeyed hooks run, so a sandboxed command cannot rewrite it.
    hookScripts: settings.hookScripts,
  }
}

/**
 * The Read deny rules as the sandbox library's `denyRead`
 * globs: each rule's gitignore-style patterns anchored where the rule anchors them. The library
 * expands them to the files that exist when a command is wrapped.
 */
export function readDenyPatterns(settings: MergedSettings, projectRoot: string): string[] {
  const out: string[] = []
  for (const rule of settings.rules.deny) {
    if (rule.parsed.kind !== 'path' || rule.parsed.tool !== 'Read') continue
    const compiled = compilePathPattern(rule.parsed.pattern, { sourceRoot: rule.sourceRoot, cwd: projectRoot, home: settings.home }, false)
    for (const glob of compiled.globs) out.push(glob === '**' ? compiled.base : join(compiled.base, glob))
    // A file the rule names may have other names (hard links) in the project: those are the same file.
    if (compiled.globs.length === 1 && !/[*?[\]{}!]/.test(compiled.globs[0] as string)) out.push(...hardLinksOf(join(compiled.base, compiled.globs[0] as string), projectRoot))
  }
  return [...new Set(out)]
}

/** Bounds on the search for other names of a denied file. */
const MAX_LINK_SEARCH = 20_000

/** The other names `file` has inside `root` (same device and inode), when it has more than one. */
function hardLinksOf(file: string, root: string): string[] {
  let target
  try {
    target = statSync(file)
  } catch {
    return []
  }
  if (!target.isFile() || target.nlink < 2) return []
  const found: string[] = []
  walkTree(root, {
    maxEntries: MAX_LINK_SEARCH,
    // Every other name is found: the rest of the tree cannot hold another.
    done: () => found.length >= target.nlink - 1,
    visit(path, entry) {
      if (!entry.isFile() || path === file) return
      try {
        const stat = statSync(path)
        if (stat.ino === target.ino && stat.dev === target.dev) found.push(path)
      } catch {
        // Gone meanwhile.
      }
    },
  })
  return found
}

/**
 * Starts the Bash sandbox the settings ask for and proves it works (a wrapped `true` must run).
 * Returns `undefined` when the settings turn it off (`sandbox.enabled: false`), so governance does
 * not treat its absence as a failure. Contract: never throws; a broken sandbox is
 * `{available:false, reason}` and the caller shows the reason once.
 */
export async function startBashSandbox(settings: MergedSettings, options: StartSandboxOptions): Promise<{ state: BashSandboxState; dispose(): Promise<void> } | undefined> {
  if (settings.sandbox.enabled === false) return undefined
  const started = await BashSandbox.start({ ...sandboxOptionsFor(settings, options), askNetwork: options.askNetwork })
  if (!started.ok) return { state: { available: false, reason: started.reason }, dispose: async () => {} }
  const { sandbox } = started
  return { state: { available: true, sandbox }, dispose: () => sandbox.dispose() }
}
