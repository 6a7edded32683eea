import { lstat, readdir, readFile, realpath } from 'node:fs/promises'
import { join, sep } from 'node:path'
import { canonicalMode, PERMISSION_MODE_SPELLINGS } from '../../shared/permission-modes'
import { listField, loadYaml, parseFrontmatter, stringField, type YamlParse } from '../extensions/frontmatter'
import { BUILT_IN_AGENTS, deniedToCustomAgent, FORK_AGENT_TYPE, type AgentCatalog, type AgentDefinition, type AgentFileProblem, type AgentSource } from './definitions'

/** Where custom agents are looked for, and whether the project's own may be used. */
export interface AgentLocations {
  projectRoot: string
  /** The user's home: `~/.claude/agents/`. */
  userHome: string
  /**
   * The project's `.claude/agents/` files are obeyed only once the user trusted the folder (see
   * governance/trust); until then they are listed as a problem and not offered.
   */
  projectTrusted: boolean
}

/** A name that works as `subagent_type` and in `Agent(name)` rules. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/
/** A bigger file is not loaded (it would swamp every request of the agent). */
const MAX_FILE_BYTES = 256 * 1024

/**
 * The built-in types plus the custom agents of `~/.claude/agents/*.md` and `<project>/.claude/agents/*.md`.
 * A user agent may replace a built-in type of the same name; a project agent may not (a repository must
 * not turn "Explore" into something that writes), and the user's file wins over the project's.
 * Malformed files are reported in `problems` and skipped; never throws.
 */
export async function loadAgentCatalog(locations: AgentLocations): Promise<AgentCatalog> {
  const problems: AgentFileProblem[] = []
  const byName = new Map<string, AgentDefinition>(BUILT_IN_AGENTS.map((agent) => [agent.name, agent]))
  const user = await loadFolder(join(locations.userHome, '.claude', 'agents'), 'user', problems, undefined)
  const projectDir = join(locations.projectRoot, '.claude', 'agents')
  let project: AgentDefinition[] = []
  if (locations.projectTrusted) project = await loadFolder(projectDir, 'project', problems, locations.projectRoot)
  else if ((await markdownFiles(projectDir)).length > 0) {
    problems.push({ file: projectDir, level: 'warning', message: 'not used until you trust this folder (its agents could change what Sous does)' })
  }
  for (const agent of user) byName.set(agent.name, agent)
  for (const agent of project) {
    const earlier = byName.get(agent.name)
    if (earlier) {
      const why = earlier.source === 'built-in' ? `the built-in "${agent.name}" type cannot be replaced by a project's file` : `the user agent "${agent.name}" (${earlier.file}) has the same name`
      problems.push({ file: agent.file!, level: 'warning', message: `not used: ${why}` })
    } else byName.set(agent.name, agent)
  }
  return { agents: [...byName.values()], problems }
}

async function loadFolder(dir: string, source: AgentSource, problems: AgentFileProblem[], confinedTo: string | undefined): Promise<AgentDefinition[]> {
  const out: AgentDefinition[] = []
  const seen = new Set<string>()
  let yaml: YamlParse | undefined
  for (const file of await markdownFiles(dir)) {
    const text = await readAgentFile(file, confinedTo, problems)
    if (text === undefined) continue
    yaml ??= await loadYaml()
    const agent = parseAgentFile(text, yaml, file, source, problems)
    if (!agent) continue
    if (seen.has(agent.name)) {
      problems.push({ file, level: 'warning', message: `not used: another file in ${dir} already defines "${agent.name}"` })
      continue
    }
    seen.add(agent.name)
    out.push(agent)
  }
  return out
}

/** The `.md` files of a folder, sorted; none when it does not exist. */
async function markdownFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[])
  return names
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(dir, name))
}

/**
 * A file's text, or undefined (reported) when it is not a plain file, too big, or — in a project —
 * a symlink leading out of the project: a repository must not make Sous read `~/.ssh/…` as a prompt.
 */
async function readAgentFile(file: string, confinedTo: string | undefined, problems: AgentFileProblem[]): Promise<string | undefined> {
  const info = await lstat(file).catch(() => undefined)
  if (!info) return undefined
  if (info.isSymbolicLink() && confinedTo !== undefined) {
    const [target, root] = await Promise.all([realpath(file).catch(() => undefined), realpath(confinedTo).catch(() => confinedTo)])
    if (!target || (target !== root && !target.startsWith(root + sep))) {
      problems.push({ file, level: 'error', message: 'skipped: a symlink that leads outside the project' })
      return undefined
    }
  } else if (!info.isSymbolicLink() && !info.isFile()) return undefined
  const text = await readFile(file, 'utf8').catch(() => undefined)
  if (text === undefined) {
    problems.push({ file, level: 'error', message: 'skipped: it could not be read' })
    return undefined
  }
  if (Buffer.byteLength(text) > MAX_FILE_BYTES) {
    problems.push({ file, level: 'error', message: `skipped: larger than ${MAX_FILE_BYTES / 1024} KB` })
    return undefined
  }
  return text
}

/**
 * One agent file: frontmatter `name`, `description`, `tools`, `disallowedTools`, `model`,
 * `permissionMode`, `maxTurns`; the body is the system prompt. Undefined (and a problem) when it
 * cannot be an agent; a bad optional field is a warning and is left out.
 */
export function parseAgentFile(text: string, yaml: YamlParse, file: string, source: AgentSource, problems: AgentFileProblem[]): AgentDefinition | undefined {
  const parsed = parseFrontmatter(text, yaml)
  if (!parsed.ok) {
    problems.push({ file, level: 'error', message: `skipped: ${parsed.error}` })
    return undefined
  }
  const { data, body } = parsed
  const name = stringField(data, 'name').value?.trim()
  const description = stringField(data, 'description').value?.trim()
  if (!name || !description) {
    problems.push({ file, level: 'error', message: `skipped: the frontmatter needs ${!name ? '"name"' : '"description"'}` })
    return undefined
  }
  if (!NAME.test(name) || name === FORK_AGENT_TYPE) {
    problems.push({ file, level: 'error', message: `skipped: "${name}" cannot be an agent name${name === FORK_AGENT_TYPE ? ' (it is reserved)' : ' (letters, digits, "_", "-", ".", ":"; at most 64 characters)'}` })
    return undefined
  }
  if (body.trim() === '') {
    problems.push({ file, level: 'error', message: 'skipped: the body (the agent\'s system prompt) is empty' })
    return undefined
  }
  const warn = (message: string) => problems.push({ file, level: 'warning', message })
  const agent: AgentDefinition = { name, description, source, file, prompt: body.trim(), disallowedTools: [] }
  const tools = toolNames(data, 'tools', warn)
  if (tools !== undefined) agent.tools = tools
  const withheld = deniedToCustomAgent(agent)
  if (withheld.length > 0) warn(`"tools": ${withheld.join(', ')} ${withheld.length === 1 ? 'is' : 'are'} not available to custom agents (they act on the main conversation); the agent runs without ${withheld.length === 1 ? 'it' : 'them'} and is told so`)
  agent.disallowedTools = toolNames(data, 'disallowedTools', warn) ?? []
  const model = stringField(data, 'model')
  if (model.problem) warn(`"model" ignored: ${model.problem}`)
  else if (model.value?.trim()) agent.model = model.value.trim()
  const mode = stringField(data, 'permissionMode')
  if (mode.value !== undefined) {
    const known = canonicalMode(mode.value)
    if (known) agent.permissionMode = known
    else warn(`"permissionMode" ignored: "${mode.value}" is not one of ${PERMISSION_MODE_SPELLINGS.join(', ')}`)
  }
  const maxTurns = data['maxTurns']
  if (maxTurns !== undefined) {
    if (typeof maxTurns === 'number' && Number.isInteger(maxTurns) && maxTurns > 0) agent.maxTurns = maxTurns
    else warn('"maxTurns" ignored: it must be a whole number above 0')
  }
  return agent
}

/**
 * A tool list field: names, as a YAML list or one comma- or space-separated string. `Bash(git *)`
 * (a permission rule, which Claude Code's agent files do not take) counts as its tool name, with a
 * warning. Undefined when the field is absent; `*` means every tool.
 */
function toolNames(data: Record<string, unknown>, key: string, warn: (message: string) => void): string[] | undefined {
  if (data[key] === undefined || data[key] === null) return undefined
  const field = listField(data, key)
  if (field.problem) {
    warn(`"${key}" ignored: ${field.problem}`)
    return undefined
  }
  if (field.value.includes('*')) return undefined
  return field.value.map((entry) => {
    const open = entry.indexOf('(')
    if (open < 0) return entry
    warn(`"${key}": "${entry}" counts as ${entry.slice(0, open)} (agent files name tools, not permission rules)`)
    return entry.slice(0, open)
  })
}
