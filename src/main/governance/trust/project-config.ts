import { createHash } from 'node:crypto'
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { scriptDigests, settingsHookScripts } from './hook-scripts'

/**
 * What a project's own files would change if Sous obeyed them: the trust step shows it, and
 * fingerprints it so a later change (a `git pull` that adds a hook) asks again. Three parts, each
 * with its own fingerprint, because each has its own consumer: the settings loader (hooks, allow
 * rules, extra directories, sandbox), the MCP client (`.mcp.json`), and agents, skills and commands.
 */

/** The project's trust-relevant configuration, as the trust dialog lists it. */
export interface TrustSummary {
  hooks: Array<{ event: string; matcher?: string; command: string; file: string }>
  allowRules: Array<{ rule: string; file: string }>
  additionalDirectories: Array<{ path: string; file: string }>
  /** Settings that loosen the sandbox or the mode (`sandbox.enabled: false`, `allowWrite`, `defaultMode`…). */
  loosening: Array<{ setting: string; value: string; file: string }>
  mcpServers: Array<{ name: string; launch: string; file: string }>
  agents: string[]
  skills: string[]
  commands: string[]
  /** Files that could not be read: nothing in them is obeyed until they parse and are trusted. */
  problems: string[]
}

/** One fingerprint per consumer (see the module comment). */
export interface TrustFingerprints {
  settings: string
  mcp: string
  extensions: string
}

/** The project's own files in the order Claude Code reads them (local before project). */
export function projectSettingsFiles(projectRoot: string): { local: string; project: string } {
  return { local: join(projectRoot, '.claude', 'settings.local.json'), project: join(projectRoot, '.claude', 'settings.json') }
}

/**
 * The settings part's fingerprint, from the files' texts (`undefined`: no file). It covers every
 * key except the deny and ask lists, so adding a restriction never asks again, while any other
 * change does — including keys Sous does not read yet. Formatting does not count. It also covers
 * the content of every project script a hook command runs (`hookScriptPaths`): trusting a hook
 * trusts what it runs, so a changed, removed or newly created script asks again.
 */
export function settingsFingerprint(texts: { local?: string; project?: string }, projectRoot: string): string {
  const files = [canonicalSettings(texts.local), canonicalSettings(texts.project)]
  const scripts = [texts.local, texts.project].flatMap((text) => (text === undefined ? [] : settingsHookScripts(parseObject(text), projectRoot)))
  // Without scripts the fingerprint is what it always was, so existing trust stays valid.
  return digest(scripts.length === 0 ? files : [...files, scriptDigests(scripts, projectRoot)])
}

/**
 * The `.mcp.json` part's fingerprint, from the file's text (`undefined`: no file). Formatting and
 * key order do not count.
 */
export function mcpFingerprint(text: string | undefined): string {
  return digest(text === undefined ? null : (canonicalJson(text) ?? `raw:${text}`))
}

/** Reads the project's trust-relevant configuration and its fingerprints. Never throws. */
export function readProjectConfig(projectRoot: string): { summary: TrustSummary; fingerprints: TrustFingerprints } {
  const root = resolve(projectRoot)
  const summary: TrustSummary = { hooks: [], allowRules: [], additionalDirectories: [], loosening: [], mcpServers: [], agents: [], skills: [], commands: [], problems: [] }
  const files = projectSettingsFiles(root)
  const texts = { local: readText(files.local), project: readText(files.project) }
  for (const [name, file] of [['local', files.local], ['project', files.project]] as const) {
    const text = texts[name]
    if (text === undefined || text.trim() === '') continue
    const data = parseObject(text)
    if (!data) summary.problems.push(`${relative(root, file)} is not a valid JSON object`)
    else summarizeSettings(data, relative(root, file), summary)
  }
  const mcpText = readText(join(root, '.mcp.json'))
  if (mcpText !== undefined && mcpText.trim() !== '') {
    const data = parseObject(mcpText)
    if (!data) summary.problems.push('.mcp.json is not a valid JSON object')
    else summary.mcpServers = mcpServersOf(data)
  }
  const extensionFiles = listTree(join(root, '.claude'), ['agents', 'skills', 'commands'])
  summary.agents = namesOf(extensionFiles, 'agents/', (path) => path.endsWith('.md'), (path) => path.slice(0, -3))
  summary.commands = namesOf(extensionFiles, 'commands/', (path) => path.endsWith('.md'), (path) => path.slice(0, -3))
  summary.skills = namesOf(extensionFiles, 'skills/', (path) => /^[^/]+\/SKILL\.md$/.test(path), (path) => path.split('/')[0]!)
  return {
    summary,
    fingerprints: {
      settings: settingsFingerprint(texts, root),
      mcp: mcpFingerprint(mcpText),
      extensions: digest(extensionFiles),
    },
  }
}

/** Whether the summary holds anything the user is asked to trust. */
export function hasTrustRelevantConfig(summary: TrustSummary): boolean {
  return Object.values(summary).some((list) => (list as unknown[]).length > 0)
}

function summarizeSettings(data: Record<string, unknown>, file: string, out: TrustSummary): void {
  const permissions = objectOf(data.permissions)
  for (const rule of stringsOf(permissions.allow)) out.allowRules.push({ rule, file })
  for (const path of stringsOf(permissions.additionalDirectories)) out.additionalDirectories.push({ path, file })
  if (typeof permissions.defaultMode === 'string' && permissions.defaultMode !== 'default' && permissions.defaultMode !== 'manual' && permissions.defaultMode !== 'plan')
    out.loosening.push({ setting: 'permissions.defaultMode', value: permissions.defaultMode, file })
  for (const [event, matchers] of Object.entries(objectOf(data.hooks))) {
    for (const entry of Array.isArray(matchers) ? matchers : []) {
      const matcher = objectOf(entry).matcher
      for (const handler of Array.isArray(objectOf(entry).hooks) ? (objectOf(entry).hooks as unknown[]) : []) {
        const h = objectOf(handler)
        const command = typeof h.command === 'string' ? [h.command, ...stringsOf(h.args)].join(' ') : `(${String(h.type ?? 'unknown')} hook)`
        out.hooks.push({ event, ...(typeof matcher === 'string' && matcher !== '' ? { matcher } : {}), command, file })
      }
    }
  }
  const sandbox = objectOf(data.sandbox)
  if (sandbox.enabled === false) out.loosening.push({ setting: 'sandbox.enabled', value: 'false', file })
  for (const path of stringsOf(objectOf(sandbox.filesystem).allowWrite)) out.loosening.push({ setting: 'sandbox.filesystem.allowWrite', value: path, file })
  for (const path of stringsOf(objectOf(sandbox.filesystem).allowRead)) out.loosening.push({ setting: 'sandbox.filesystem.allowRead', value: path, file })
  for (const domain of stringsOf(objectOf(sandbox.network).allowedDomains)) out.loosening.push({ setting: 'sandbox.network.allowedDomains', value: domain, file })
  if (data.enableAllProjectMcpServers === true) out.loosening.push({ setting: 'enableAllProjectMcpServers', value: 'true', file })
  for (const name of stringsOf(data.enabledMcpjsonServers)) out.loosening.push({ setting: 'enabledMcpjsonServers', value: name, file })
}

function mcpServersOf(data: Record<string, unknown>): TrustSummary['mcpServers'] {
  return Object.entries(objectOf(data.mcpServers)).map(([name, value]) => {
    const server = objectOf(value)
    const launch = typeof server.command === 'string' ? [server.command, ...stringsOf(server.args)].join(' ') : typeof server.url === 'string' ? server.url : '(no command or url)'
    return { name, launch, file: '.mcp.json' }
  })
}

/** Canonical text of a settings file without its deny and ask lists (or its raw text when it does not parse). */
function canonicalSettings(text: string | undefined): string | null {
  if (text === undefined) return null
  const data = parseObject(text)
  if (!data) return `raw:${text}`
  const permissions = objectOf(data.permissions)
  const { deny: _deny, ask: _ask, ...kept } = permissions
  return canonical({ ...data, ...(data.permissions !== undefined ? { permissions: kept } : {}) })
}

function canonicalJson(text: string): string | undefined {
  try {
    return canonical(JSON.parse(text))
  } catch {
    return undefined
  }
}

/** JSON with object keys sorted, so formatting and key order do not change a fingerprint. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/** Bounds on the walk of `.claude/{agents,skills,commands}`; past them the listing itself is the fingerprint. */
const MAX_FILES = 2000
const MAX_BYTES = 20 * 1024 * 1024
const MAX_DEPTH = 6

/**
 * Every file under the given folders of `.claude` as `[relative path, content digest]`, sorted.
 * Symlinks are listed with their target (never followed), so a link that is re-pointed changes
 * the fingerprint too.
 */
function listTree(base: string, folders: string[]): Array<[string, string]> {
  const out: Array<[string, string]> = []
  let bytes = 0
  const walk = (dir: string, depth: number): void => {
    if (depth > MAX_DEPTH || out.length >= MAX_FILES) return
    let names: string[]
    try {
      names = readdirSync(dir).sort()
    } catch {
      return
    }
    for (const name of names) {
      if (out.length >= MAX_FILES) return
      const path = join(dir, name)
      const rel = relative(base, path).split('\\').join('/')
      let stat
      try {
        stat = lstatSync(path)
      } catch {
        continue
      }
      if (stat.isSymbolicLink()) out.push([rel, `link:${safeReadlink(path)}`])
      else if (stat.isDirectory()) walk(path, depth + 1)
      else if (stat.isFile()) {
        bytes += stat.size
        out.push([rel, bytes > MAX_BYTES ? `size:${stat.size}:${stat.mtimeMs}` : digest(readText(path) ?? '')])
      }
    }
  }
  for (const folder of folders) walk(join(base, folder), 1)
  return out
}

function namesOf(files: Array<[string, string]>, prefix: string, keep: (path: string) => boolean, name: (path: string) => string): string[] {
  return files
    .map(([path]) => path)
    .filter((path) => path.startsWith(prefix) && keep(path.slice(prefix.length)))
    .map((path) => name(path.slice(prefix.length)))
}

function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex')
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

function safeReadlink(path: string): string {
  try {
    return readlinkSync(path)
  } catch {
    return '?'
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

function objectOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
}
