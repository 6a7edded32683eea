import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { sousHome } from '../../base/paths'
import { parseRule } from '../rules/parse'
import { hookScriptPaths } from '../trust/hook-scripts'
import { settingsFingerprint } from '../trust/project-config'
import { isPartTrusted } from '../trust/trust'
import { trustFilePath } from '../trust/trust-store'
import { canonicalMode } from '../../../shared/permission-modes'
import type { PermissionMode, RuleBehavior, SettingsSourceName } from '../types'
import { hookEventProblem } from '../hook-events'
import { readBehaviourKeys } from './behaviour-keys'
import { emptyAutoMode, readAutoModeKeys } from './auto-mode-keys'
import { handlerProblem, readAutoCompactWindow, unknownModeProblem, untrustedNotice, userOnlyModeProblem, type Source } from './load-problems'
import { parseSource, readSource } from './read-source'
import type { LoadedSettings, MergedSettings, SettingsDiagnostic } from './types'

/** Default location of the managed policy file. */
export const DEFAULT_MANAGED_SETTINGS = '/etc/sous/managed-settings.json'

/** Options of {@link loadSettings}. */
export interface LoadSettingsOptions {
  /** Managed policy file (default {@link DEFAULT_MANAGED_SETTINGS}). */
  managedPath?: string
  /** `$SOUS_HOME` (default from the environment); user settings are `<sousHome>/settings.json`. */
  sousHome?: string
  /** Home directory for `~` (default os.homedir()). */
  home?: string
  /** Command-line flags (source `cli`). */
  cli?: {
    allowedTools?: string[]
    disallowedTools?: string[]
    askTools?: string[]
    permissionMode?: PermissionMode
    /** `--settings`: an absolute path to a settings file, or JSON text (starts with `{`); source `flag`. */
    settings?: string
  }
  /**
   * How the project's own files (`.claude/settings.json`, `.claude/settings.local.json`) are
   * treated. `check` (the default): they loosen nothing — no hooks, allow rules, extra
   * directories, sandbox loosening or permissive default mode — unless the user trusted the folder
   * as its files are now (`$SOUS_HOME/trust.json`); their deny and ask rules always apply.
   * `assume`: obeyed as they are (headless `sous -p`, as Claude Code does).
   */
  projectTrust?: 'check' | 'assume'
}

/** Sources written by the project itself, which a cloned repository controls. */
const PROJECT_SOURCES = new Set<SettingsSourceName>(['local', 'project'])
/** Default modes that loosen what is asked; a project needs trust to set them. */
const LOOSE_MODES = new Set<string>(['acceptEdits', 'auto', 'bypassPermissions'])
/**
 * Default modes a repository's own files never set, trusted or not (Claude Code: "only
 * policy/user/flag settings may grant bypass mode"; a project's `auto` does not count either).
 */
const USER_ONLY_MODES = new Set<string>(['auto', 'bypassPermissions'])

/** Paths of the settings files of a project, highest precedence first. */
export function settingsFilePaths(projectRoot: string, opts: LoadSettingsOptions = {}): Record<'managed' | 'local' | 'project' | 'user', string> {
  return {
    managed: opts.managedPath ?? DEFAULT_MANAGED_SETTINGS,
    local: join(projectRoot, '.claude', 'settings.local.json'),
    project: join(projectRoot, '.claude', 'settings.json'),
    user: join(opts.sousHome ?? sousHome(), 'settings.json'),
  }
}

/**
 * Loads and merges every settings source. Contract: never throws for bad files. A file that
 * cannot be parsed (JSON syntax or schema) fails closed: it is listed in `broken` (so every allow
 * becomes ask), its deny/ask lists are kept when they can still be read, and the error is reported
 * with file, line and column.
 */
export function loadSettings(projectRoot: string, opts: LoadSettingsOptions = {}): LoadedSettings {
  const root = resolve(projectRoot)
  const home = opts.home ?? homedir()
  const files = settingsFilePaths(root, opts)
  const diagnostics: SettingsDiagnostic[] = []
  const merged: MergedSettings = {
    projectRoot: root,
    home,
    rules: { allow: [], deny: [], ask: [] },
    additionalDirectories: [],
    hooks: [],
    disableAllHooks: false,
    allowedHttpHookUrls: [],
    disableBypassPermissions: false,
    disableAutoMode: false,
    autoMode: emptyAutoMode(),
    behaviour: {},
    sandbox: { allowedDomains: [], deniedDomains: [], denyRead: [], allowRead: [], allowWrite: [], denyWrite: [] },
    broken: [],
    // The trust file decides what the project's own files may do: protected like a settings file.
    settingsFiles: [...Object.values(files), trustFilePath(opts.sousHome ?? sousHome())],
    trust: { state: 'assumed', ignored: [] },
    hookScripts: [],
  }
  const sources: Source[] = [
    readSource('managed', files.managed, root, merged, diagnostics),
    cliSource(opts.cli, root),
    flagSource(opts.cli?.settings, root, merged, diagnostics),
    readSource('local', files.local, root, merged, diagnostics),
    readSource('project', files.project, root, merged, diagnostics),
    readSource('user', files.user, home, merged, diagnostics),
  ]
  const managed = sources[0]?.data
  const managedRulesOnly = managed?.allowManagedPermissionRulesOnly === true
  const managedHooksOnly = managed?.allowManagedHooksOnly === true
  const trusted = projectTrusted(root, opts, sources)
  merged.trust.state = opts.projectTrust === 'assume' ? 'assumed' : trusted ? 'trusted' : 'untrusted'
  for (const src of sources) {
    const d = src.data
    if (!d) continue
    // Until the folder is trusted, the project's own files may only restrict.
    const restrictOnly = !trusted && PROJECT_SOURCES.has(src.name)
    const ignore = (what: string): void => void merged.trust.ignored.push(`${what} (${src.file ?? src.name})`)
    const p = d.permissions
    for (const behavior of ['deny', 'ask', 'allow'] as const) {
      if (managedRulesOnly && src.name !== 'managed' && behavior !== 'deny') continue
      if (restrictOnly && behavior === 'allow') {
        for (const text of p?.allow ?? []) ignore(`allow rule ${text}`)
        continue
      }
      for (const text of p?.[behavior] ?? []) addRule(merged, diagnostics, src, behavior, text)
    }
    const mode = p?.defaultMode === undefined ? undefined : canonicalMode(p.defaultMode)
    if (p?.defaultMode !== undefined && !mode) diagnostics.push(unknownModeProblem(src, p.defaultMode))
    else if (mode && PROJECT_SOURCES.has(src.name) && USER_ONLY_MODES.has(mode)) diagnostics.push(userOnlyModeProblem(src, mode))
    else if (mode && restrictOnly && LOOSE_MODES.has(mode)) ignore(`defaultMode ${p?.defaultMode}`)
    else if (mode && !merged.defaultMode) merged.defaultMode = mode
    for (const dir of p?.additionalDirectories ?? []) {
      if (restrictOnly) ignore(`additional directory ${dir}`)
      else merged.additionalDirectories.push(resolve(src.sourceRoot, dir.replace(/^~(?=\/|$)/, home)))
    }
    if (p?.disableBypassPermissionsMode === 'disable' && src.name === 'managed') merged.disableBypassPermissions = true
    // Turning auto mode off only restricts, so any file may do it.
    if (p?.disableAutoMode === 'disable' || d.disableAutoMode === 'disable') merged.disableAutoMode = true
    if (d.disableAllHooks === true) merged.disableAllHooks = true
    if (typeof d.fileCheckpointingEnabled === 'boolean' && merged.fileCheckpointingEnabled === undefined) merged.fileCheckpointingEnabled = d.fileCheckpointingEnabled
    // An allowlist lets hooks send data off the machine: a project's own files need trust for it.
    for (const pattern of d.allowedHttpHookUrls ?? []) {
      if (restrictOnly) ignore(`allowedHttpHookUrls ${pattern}`)
      else merged.allowedHttpHookUrls.push(pattern)
    }
    readBehaviourKeys(d, src, merged.behaviour, diagnostics)
    readAutoModeKeys(d, src, merged.autoMode, diagnostics)
    if (!(managedHooksOnly && src.name !== 'managed')) {
      for (const [event, matchers] of Object.entries(d.hooks ?? {})) {
        const problem = hookEventProblem(event)
        if (problem) diagnostics.push({ source: src.name, file: src.file, level: 'warning', message: `hooks.${event}: ${problem}` })
        for (const m of matchers) {
          for (const handler of m.hooks) {
            const unsupported = handlerProblem(handler.type)
            if (unsupported) diagnostics.push({ source: src.name, file: src.file, level: 'warning', message: `hooks.${event}: ${unsupported}` })
            if (restrictOnly) ignore(`${event} hook ${handler.command ?? handler.url ?? handler.type}`)
            else merged.hooks.push({ event, matcher: m.matcher, handler, source: src.name, file: src.file })
          }
        }
      }
    }
    readAutoCompactWindow(merged, diagnostics, src)
    const sb = d.sandbox
    if (sb) {
      if (restrictOnly && sb.enabled === false) ignore('sandbox.enabled false')
      else if (merged.sandbox.enabled === undefined && sb.enabled !== undefined) merged.sandbox.enabled = sb.enabled
      for (const domain of sb.network?.allowedDomains ?? []) {
        if (restrictOnly) ignore(`sandbox allowed domain ${domain}`)
        else merged.sandbox.allowedDomains.push(domain)
      }
      for (const path of sb.filesystem?.allowWrite ?? []) {
        if (restrictOnly) ignore(`sandbox allowWrite ${path}`)
        else merged.sandbox.allowWrite.push(path)
      }
      for (const path of sb.filesystem?.allowRead ?? []) {
        if (restrictOnly) ignore(`sandbox allowRead ${path}`)
        else merged.sandbox.allowRead.push(path.replace(/^~(?=\/|$)/, home))
      }
      merged.sandbox.deniedDomains.push(...(sb.network?.deniedDomains ?? []))
      merged.sandbox.denyRead.push(...(sb.filesystem?.denyRead ?? []))
      merged.sandbox.denyWrite.push(...(sb.filesystem?.denyWrite ?? []))
    }
  }
  merged.hookScripts = [...new Set(merged.hooks.flatMap((hook) => hookScriptPaths(hook.handler, root)))]
  if (merged.trust.ignored.length > 0) diagnostics.push(untrustedNotice(merged.trust.ignored))
  return { settings: merged, diagnostics }
}

/**
 * Whether the project's own files are obeyed: assumed (headless), or trusted by the user with the
 * settings fingerprint of the files exactly as read here.
 */
function projectTrusted(root: string, opts: LoadSettingsOptions, sources: Source[]): boolean {
  if (opts.projectTrust === 'assume') return true
  const text = (name: SettingsSourceName): string | undefined => sources.find((src) => src.name === name)?.text
  return isPartTrusted(root, opts.sousHome ?? sousHome(), 'settings', settingsFingerprint({ local: text('local'), project: text('project') }, root))
}

/** `--settings`: a file (listed with the settings files, so it is protected and watched) or inline JSON. */
function flagSource(value: string | undefined, root: string, merged: MergedSettings, diagnostics: SettingsDiagnostic[]): Source {
  if (value === undefined) return { name: 'flag', sourceRoot: root }
  if (value.trimStart().startsWith('{')) return parseSource('flag', undefined, value, root, merged, diagnostics)
  merged.settingsFiles.push(value)
  return readSource('flag', value, dirname(value), merged, diagnostics)
}

function cliSource(cli: LoadSettingsOptions['cli'], root: string): Source {
  if (!cli) return { name: 'cli', sourceRoot: root }
  return {
    name: 'cli',
    sourceRoot: root,
    data: { permissions: { allow: cli.allowedTools, deny: cli.disallowedTools, ask: cli.askTools, defaultMode: cli.permissionMode } },
  }
}

function addRule(merged: MergedSettings, diagnostics: SettingsDiagnostic[], src: Source, behavior: RuleBehavior, text: string): void {
  const origin = { text, behavior, source: src.name, file: src.file }
  const r = parseRule(text)
  if (r.ok) {
    if (r.warning) diagnostics.push({ source: src.name, file: src.file, level: 'warning', message: r.warning })
    merged.rules[behavior].push({ parsed: r.rule, origin, sourceRoot: src.sourceRoot })
    return
  }
  if (behavior === 'allow') {
    diagnostics.push({ source: src.name, file: src.file, level: 'warning', message: `ignored allow rule: ${r.error}` })
    return
  }
  // An unreadable deny/ask rule fails closed: ask for the whole tool it names, or for everything.
  diagnostics.push({ source: src.name, file: src.file, level: 'error', message: `${behavior} rule could not be parsed, asking instead: ${r.error}` })
  if (r.tool) merged.rules.ask.push({ parsed: { kind: 'tool', tool: r.tool }, origin: { ...origin, behavior: 'ask' }, sourceRoot: src.sourceRoot })
  else merged.broken.push({ file: src.file ?? src.name, message: r.error })
}
