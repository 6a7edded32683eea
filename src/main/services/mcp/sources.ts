import { readFileSync, realpathSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { standsForNothing } from '../../base/placeholder-folder'
import { parseMcpServers, type McpConfigProblem, type McpScope, type McpServerDefinition } from './config'

/** Where to look for MCP servers. */
export interface McpSourceOptions {
  projectRoot: string
  /** The user's home (`~/.claude.json`, `~/.claude/settings.json`). */
  userHome: string
  /** `$SOUS_HOME` (`settings.json` may hold `mcpServers` too). */
  sousHome: string
  /** What `${VAR}` expands against: the environment without Sous's own secrets. */
  env: Readonly<Record<string, string | undefined>>
  /** `--mcp-config`: absolute file paths or JSON texts. */
  cliConfigs?: readonly string[]
  /** `--strict-mcp-config`: only the `--mcp-config` servers. */
  strict?: boolean
}

/** Project-server choices from settings files (Claude Code's keys). */
export interface McpProjectChoices {
  /** `disabledMcpjsonServers` from any settings file: never started. */
  disabled: Set<string>
  /** `enabledMcpjsonServers` from files the repository cannot commit for you (user, local). */
  enabled: Set<string>
  /** `enableAllProjectMcpServers` from those files. */
  enableAll: boolean
}

/** Every configured server, one definition per name (the highest-precedence source wins). */
export interface McpSources {
  servers: McpServerDefinition[]
  problems: McpConfigProblem[]
  choices: McpProjectChoices
  /** The project's `.mcp.json` as read (`null`: none, or not read under `--strict-mcp-config`): what its trust is checked against. */
  projectFileText: string | null
}

/**
 * Reads the MCP configuration as Claude Code lays it out: `--mcp-config` (highest), the project's
 * entry in `~/.claude.json` (local scope), the project's `.mcp.json`, then the user's servers
 * (`$SOUS_HOME/settings.json`, then `~/.claude.json`). A name defined twice takes the whole entry
 * of the higher source; fields are never merged. Never throws: unreadable files become problems.
 */
export function loadMcpSources(options: McpSourceOptions): McpSources {
  const problems: McpConfigProblem[] = []
  const layers: Array<{ servers: McpServerDefinition[] }> = []
  const add = (servers: unknown, scope: McpScope, file?: string) => {
    const parsed = parseMcpServers(servers, { scope, ...(file && { file }) }, options.env)
    problems.push(...parsed.problems)
    layers.push({ servers: parsed.servers })
  }
  for (const config of options.cliConfigs ?? []) {
    const isText = config.trimStart().startsWith('{')
    const json = isText ? parseJson(config, '--mcp-config') : readJson(config, true)
    if (json.problem) problems.push(json.problem)
    else if (json.value !== undefined) add(objectOf(json.value)['mcpServers'], 'cli', isText ? undefined : config)
  }
  const claudeJsonPath = join(options.userHome, '.claude.json')
  const claudeJson = options.strict ? {} : readJson(claudeJsonPath)
  let projectFileText: string | null = null
  if (!options.strict) {
    if (claudeJson.problem) problems.push(claudeJson.problem)
    const projects = objectOf(objectOf(claudeJson.value)['projects'])
    const local = projects[options.projectRoot] ?? projects[realPath(options.projectRoot)]
    add(objectOf(local)['mcpServers'], 'local', claudeJsonPath)
    const projectFile = join(options.projectRoot, '.mcp.json')
    const project = readJson(projectFile)
    projectFileText = project.text ?? null
    if (project.problem) problems.push(project.problem)
    add(objectOf(project.value)['mcpServers'], 'project', projectFile)
    const sousSettings = join(options.sousHome, 'settings.json')
    const sous = readJson(sousSettings)
    if (sous.problem) problems.push(sous.problem)
    add(objectOf(sous.value)['mcpServers'], 'user', sousSettings)
    add(objectOf(claudeJson.value)['mcpServers'], 'user', claudeJsonPath)
  }
  const byName = new Map<string, McpServerDefinition>()
  for (const layer of layers) for (const server of layer.servers) if (!byName.has(server.name)) byName.set(server.name, server)
  return { servers: [...byName.values()], problems, choices: projectChoices(options), projectFileText }
}

/**
 * Claude Code's approval keys. Disabling is honoured from every settings file; enabling only from
 * files a cloned repository does not supply (the user's and `.claude/settings.local.json`), so a
 * repository can never approve its own servers.
 */
function projectChoices(options: McpSourceOptions): McpProjectChoices {
  const trustedFiles = [
    join(options.sousHome, 'settings.json'),
    join(options.userHome, '.claude', 'settings.json'),
    join(options.projectRoot, '.claude', 'settings.local.json'),
  ]
  const choices: McpProjectChoices = { disabled: new Set(), enabled: new Set(), enableAll: false }
  for (const file of [...trustedFiles, join(options.projectRoot, '.claude', 'settings.json')]) {
    const settings = objectOf(readJson(file).value)
    for (const name of stringsOf(settings['disabledMcpjsonServers'])) choices.disabled.add(name)
    if (!trustedFiles.includes(file)) continue
    for (const name of stringsOf(settings['enabledMcpjsonServers'])) choices.enabled.add(name)
    if (settings['enableAllProjectMcpServers'] === true) choices.enableAll = true
  }
  return choices
}

/** A JSON file's value; a missing file is nothing unless it was asked for by name (`--mcp-config`). */
function readJson(file: string, required = false): { value?: unknown; problem?: McpConfigProblem; text?: string } {
  let text: string
  try {
    text = readFileSync(resolve(file), 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // A placeholder folder stands in for an absent `.mcp.json` while a sandboxed command runs: no file.
    if (!required && (code === 'ENOENT' || (code === 'EISDIR' && standsForNothing(resolve(file))))) return {}
    return { problem: { file, message: `could not be read: ${(error as Error).message}` } }
  }
  return { ...parseJson(text, file), text }
}

function parseJson(text: string, file: string): { value?: unknown; problem?: McpConfigProblem } {
  try {
    return { value: JSON.parse(text) as unknown }
  } catch (error) {
    return { problem: { file, message: `is not valid JSON (${(error as Error).message}); its MCP servers were not loaded` } }
  }
}

function objectOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
}

function realPath(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}
