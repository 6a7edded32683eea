/**
 * Parses Claude Code permission rule strings: `Tool` or `Tool(specifier)`.
 * Parsing never throws: a malformed rule comes back as `{ok:false, error}` so the loader can report
 * it and fail closed.
 */

/** A parsed rule, tagged by how its specifier is matched. */
export type ParsedRule =
  | { kind: 'tool'; tool: string }
  | { kind: 'bash'; tool: 'Bash'; pattern: string }
  | { kind: 'path'; tool: 'Read' | 'Edit'; pattern: string }
  | { kind: 'domain'; tool: 'WebFetch'; domain: string }
  | { kind: 'agent'; tool: 'Agent'; agentType: string }
  /** `Skill(name)`, `Skill(name *)` (any arguments, Claude Code's form), `Skill(prefix*)`: a skill by name. */
  | { kind: 'skill'; tool: 'Skill'; pattern: string }
  | { kind: 'param'; tool: string; param: string; value: string }

export type RuleParseResult = { ok: true; rule: ParsedRule; warning?: string } | { ok: false; error: string; tool?: string }

const TOOL_NAME = /^[A-Za-z0-9_*-]+$/
/** Tools whose path rules Claude Code never consults (it warns at start-up). */
const UNCONSULTED_PATH_TOOLS = new Set(['Write', 'Glob', 'MultiEdit', 'Grep', 'NotebookEdit'])

/** Parses one rule string. */
export function parseRule(text: string): RuleParseResult {
  const trimmed = text.trim()
  const open = trimmed.indexOf('(')
  if (open === -1) {
    if (!TOOL_NAME.test(trimmed)) return { ok: false, error: `invalid tool name in rule "${text}"` }
    return { ok: true, rule: { kind: 'tool', tool: trimmed } }
  }
  const tool = trimmed.slice(0, open)
  if (!TOOL_NAME.test(tool)) return { ok: false, error: `invalid tool name in rule "${text}"` }
  if (!trimmed.endsWith(')')) return { ok: false, error: `rule "${text}" lacks its closing parenthesis`, tool }
  const spec = trimmed.slice(open + 1, -1).trim()
  if (spec === '' || spec === '*') return { ok: true, rule: { kind: 'tool', tool } }
  switch (tool) {
    case 'Bash':
      return { ok: true, rule: { kind: 'bash', tool, pattern: spec } }
    case 'Read':
    case 'Edit':
      return { ok: true, rule: { kind: 'path', tool, pattern: spec } }
    case 'WebFetch': {
      if (!spec.startsWith('domain:')) return paramRule(tool, spec, text)
      const domain = spec.slice('domain:'.length).trim().toLowerCase().replace(/\.$/, '')
      if (!domain) return { ok: false, error: `empty domain in rule "${text}"`, tool }
      return { ok: true, rule: { kind: 'domain', tool, domain } }
    }
    case 'Agent':
    case 'Task':
      return { ok: true, rule: { kind: 'agent', tool: 'Agent', agentType: spec } }
    case 'Skill': {
      // `name *` and `name:*` mean the skill with any arguments: the name is what is matched.
      const pattern = spec.replace(/(?:\s+\*|:\*)$/, '').trim()
      if (!/^[\w.*:-]+$/.test(pattern)) return { ok: false, error: `invalid skill name in rule "${text}"`, tool }
      return { ok: true, rule: { kind: 'skill', tool: 'Skill', pattern } }
    }
    default:
      if (UNCONSULTED_PATH_TOOLS.has(tool) && !/^[A-Za-z_]+:/.test(spec))
        return { ok: false, error: `path rules written as ${tool}(...) are never consulted; use Read(...) or Edit(...) ("${text}")`, tool }
      return paramRule(tool, spec, text)
  }
}

/** `Tool(param:value)`: only for deny/ask; primary fields cannot be matched this way. */
function paramRule(tool: string, spec: string, text: string): RuleParseResult {
  const match = /^([A-Za-z_][A-Za-z0-9_]*):(.*)$/s.exec(spec)
  if (!match) return { ok: false, error: `unsupported specifier in rule "${text}"`, tool }
  const [, param = '', value = ''] = match
  if (['command', 'file_path', 'path', 'url', 'notebook_path'].includes(param))
    return { ok: false, error: `rule "${text}" matches a primary field (${param}), which is not supported`, tool }
  return { ok: true, rule: { kind: 'param', tool, param, value } }
}

/** True when a `Skill(…)` rule's pattern names the skill (`*` stands for any characters). */
export function skillMatches(pattern: string, skill: string): boolean {
  const name = skill.trim().replace(/^\//, '')
  if (!pattern.includes('*')) return pattern === name
  return new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`).test(name)
}

/** True when a tool-name pattern (`mcp__*`, `*`, `mcp__srv__*`) matches a tool name. */
export function toolNameMatches(pattern: string, name: string): boolean {
  if (pattern === name) return true
  if (!pattern.includes('*')) {
    // `mcp__server` covers every tool of that server.
    return pattern.startsWith('mcp__') && pattern.split('__').length === 2 && name.startsWith(`${pattern}__`)
  }
  const regex = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`)
  return regex.test(name)
}

/**
 * Allow rules may use a tool-name glob only after a literal `mcp__<server>__` (Claude Code's rule),
 * so `mcp__*` or `*` can deny or ask but never allow.
 */
export function isAllowableToolGlob(pattern: string): boolean {
  if (!pattern.includes('*')) return true
  return /^mcp__[^*_][^*]*__/.test(pattern) && pattern.indexOf('*') > pattern.lastIndexOf('__')
}

/** Escapes a string for use inside a RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
