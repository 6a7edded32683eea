import { readdir, readFile, realpath, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { booleanField, listField, loadYaml, parseFrontmatter, stringField, type YamlParse } from './frontmatter'
import type { CommandDefinition, ExtensionCatalog, ExtensionProblem, ExtensionSource, SkillDefinition } from './types'

/** Where to look: `<projectRoot>/.claude/` and `<userHome>/.claude/`. */
export interface ExtensionLocations {
  projectRoot: string
  userHome: string
}

/** A name that works after `/` and in the Skill tool. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/
/** A template bigger than this is not loaded (it would swamp the conversation anyway). */
const MAX_FILE_BYTES = 512 * 1024
/** How deep `.claude/commands/` subfolders are followed. */
const MAX_COMMAND_DEPTH = 3

/**
 * Finds every skill and custom command. The user's folder wins over the project's for the same
 * name (a repository cannot shadow your own skill), and a skill wins over a command. Malformed
 * files are reported in `problems` and skipped; nothing here throws.
 */
export async function loadExtensions(locations: ExtensionLocations): Promise<ExtensionCatalog> {
  const problems: ExtensionProblem[] = []
  const sources: Array<{ source: ExtensionSource; root: string }> = [
    { source: 'user', root: join(locations.userHome, '.claude') },
    { source: 'project', root: join(locations.projectRoot, '.claude') },
  ]
  const skills = new Map<string, SkillDefinition>()
  const seenDirs = new Set<string>()
  for (const { source, root } of sources) {
    for (const skill of await loadSkills(join(root, 'skills'), source, problems, seenDirs)) {
      const earlier = skills.get(skill.name)
      if (earlier) problems.push({ file: skill.file, level: 'warning', message: `not used: the ${earlier.source} skill "${skill.name}" (${earlier.file}) has the same name` })
      else skills.set(skill.name, skill)
    }
  }
  const commands = new Map<string, CommandDefinition>()
  for (const { source, root } of sources) {
    for (const command of await loadCommands(join(root, 'commands'), source, problems)) {
      const earlier = skills.get(command.name) ?? commands.get(command.name)
      if (earlier) problems.push({ file: command.file, level: 'warning', message: `not used: the ${earlier.source} ${earlier.kind} "${command.name}" (${earlier.file}) has the same name` })
      else commands.set(command.name, command)
    }
  }
  return { skills: [...skills.values()], commands: [...commands.values()], problems }
}

async function loadSkills(dir: string, source: ExtensionSource, problems: ExtensionProblem[], seenDirs: Set<string>): Promise<SkillDefinition[]> {
  const out: SkillDefinition[] = []
  for (const entry of await entries(dir)) {
    const skillDir = join(dir, entry)
    // Folders and symlinks to folders; the same target reached twice loads once.
    const real = await realpath(skillDir).catch(() => undefined)
    if (!real || !(await stat(real).catch(() => undefined))?.isDirectory() || seenDirs.has(real)) continue
    seenDirs.add(real)
    const file = join(skillDir, 'SKILL.md')
    const text = await readTemplate(file, problems, true)
    if (text === undefined) continue
    const parse = await yaml()
    if (!NAME.test(entry)) {
      problems.push({ file, level: 'error', message: `the folder name "${entry}" cannot be a skill name (letters, digits, "_", "-", ".", ":"; at most 64 characters)` })
      continue
    }
    // Paths are the real ones, so the folder grant and ${CLAUDE_SKILL_DIR} name where files really are.
    const skill = parseSkill(text, parse, { name: entry, source, file: join(real, 'SKILL.md'), dir: real }, problems)
    if (skill) out.push(skill)
  }
  return out
}

async function loadCommands(dir: string, source: ExtensionSource, problems: ExtensionProblem[], depth = 0): Promise<CommandDefinition[]> {
  const out: CommandDefinition[] = []
  for (const entry of await entries(dir)) {
    const path = join(dir, entry)
    const info = await stat(path).catch(() => undefined)
    if (info?.isDirectory()) {
      if (depth < MAX_COMMAND_DEPTH) out.push(...(await loadCommands(path, source, problems, depth + 1)))
      continue
    }
    if (!info?.isFile() || !entry.endsWith('.md')) continue
    const name = basename(entry, '.md')
    const text = await readTemplate(path, problems, false)
    if (text === undefined) continue
    if (!NAME.test(name)) {
      problems.push({ file: path, level: 'error', message: `the file name "${name}" cannot be a command name (letters, digits, "_", "-", ".", ":"; at most 64 characters)` })
      continue
    }
    const parsed = parseFrontmatter(text, await yaml())
    if (!parsed.ok) {
      problems.push({ file: path, level: 'error', message: parsed.error })
      continue
    }
    const fields = commonFields(parsed.data, parsed.body, path, problems)
    const seen = out.find((command) => command.name === name)
    if (seen) problems.push({ file: path, level: 'warning', message: `not used: ${seen.file} defines the command "${name}" too` })
    else out.push({ kind: 'command', name, source, file: path, ...fields, body: parsed.body })
  }
  return out
}

function parseSkill(text: string, parse: YamlParse, where: { name: string; source: ExtensionSource; file: string; dir: string }, problems: ExtensionProblem[]): SkillDefinition | undefined {
  const parsed = parseFrontmatter(text, parse)
  if (!parsed.ok) {
    problems.push({ file: where.file, level: 'error', message: parsed.error })
    return undefined
  }
  const data = parsed.data
  const warn = (problem: string | undefined) => problem && problems.push({ file: where.file, level: 'warning', message: `${problem}; ignored` })
  const displayName = stringField(data, 'name')
  const whenToUse = stringField(data, 'when_to_use')
  const disable = booleanField(data, 'disable-model-invocation')
  const invocable = booleanField(data, 'user-invocable')
  ;[displayName, whenToUse, disable, invocable].forEach((field) => warn(field.problem))
  return {
    kind: 'skill',
    ...where,
    ...commonFields(data, parsed.body, where.file, problems),
    body: parsed.body,
    displayName: displayName.value ?? where.name,
    ...(whenToUse.value && { whenToUse: whenToUse.value }),
    disableModelInvocation: disable.value ?? false,
    userInvocable: invocable.value ?? true,
  }
}

/** `description` (or the body's first paragraph), `argument-hint`, `arguments`, `allowed-tools`, `model`, `context`, `agent`. */
function commonFields(data: Record<string, unknown>, body: string, file: string, problems: ExtensionProblem[]) {
  const warn = (problem: string | undefined) => problem && problems.push({ file, level: 'warning', message: `${problem}; ignored` })
  const description = stringField(data, 'description')
  // `argument-hint: [file]` is a YAML list; show it as written.
  const rawHint = data['argument-hint']
  const hint = Array.isArray(rawHint) && rawHint.every((item) => typeof item === 'string') ? { value: rawHint.map((item) => `[${item}]`).join(' ') } : stringField(data, 'argument-hint')
  const model = stringField(data, 'model')
  const names = listField(data, 'arguments')
  const tools = listField(data, 'allowed-tools')
  const context = stringField(data, 'context')
  const agent = stringField(data, 'agent')
  ;[description, hint, model, names, tools, context, agent].forEach((field) => warn(field.problem))
  if (context.value !== undefined && context.value !== 'fork') warn(`"context" must be "fork"`)
  return {
    description: (description.value ?? firstParagraph(body)).trim(),
    ...(hint.value && { argumentHint: hint.value }),
    argumentNames: names.value,
    allowedTools: tools.value,
    ...(model.value && model.value.trim().toLowerCase() !== 'inherit' && { model: model.value.trim() }),
    fork: context.value === 'fork',
    ...(agent.value && { agent: agent.value }),
  }
}

function firstParagraph(body: string): string {
  const paragraph = body
    .split(/\r?\n\s*\r?\n/)
    .map((part) => part.trim())
    .find((part) => part !== '' && !part.startsWith('#'))
  return (paragraph ?? '').replace(/\s+/g, ' ').slice(0, 300)
}

async function readTemplate(file: string, problems: ExtensionProblem[], required: boolean): Promise<string | undefined> {
  const info = await stat(file).catch(() => undefined)
  if (!info) {
    if (required) problems.push({ file, level: 'error', message: 'the skill folder has no SKILL.md' })
    return undefined
  }
  if (info.size > MAX_FILE_BYTES) {
    problems.push({ file, level: 'error', message: `too large (${info.size} bytes; at most ${MAX_FILE_BYTES})` })
    return undefined
  }
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    problems.push({ file, level: 'error', message: `could not be read: ${(error as Error).message}` })
    return undefined
  }
}

let yamlParser: Promise<YamlParse> | undefined

/** The YAML parser, loaded the first time a file needs it (most projects have no skills). */
function yaml(): Promise<YamlParse> {
  yamlParser ??= loadYaml()
  return yamlParser
}

async function entries(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => !name.startsWith('.')).sort()
  } catch {
    return []
  }
}
