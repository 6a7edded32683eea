import type { SkillDefinition } from './types'

/** Claude Code's fallback budget for the skill listing (`SLASH_COMMAND_TOOL_CHAR_BUDGET`). */
export const DEFAULT_CATALOG_CHARS = 8_000
/** Claude Code's cap on one skill's description plus `when_to_use`. */
const MAX_DESCRIPTION = 1_536

/**
 * The skill listing for the dynamic part of the system prompt: every skill the model may load,
 * one line each, names always present; when the list is over `budget` characters, descriptions
 * are shortened evenly until it fits. Text from skill files is sanitized (no control characters,
 * angle brackets escaped) so a description cannot imitate Sous's own tags. Empty when there is no
 * skill the model may use.
 */
export function renderSkillCatalog(skills: readonly SkillDefinition[], budget = DEFAULT_CATALOG_CHARS): string {
  const visible = skills.filter((skill) => !skill.disableModelInvocation)
  if (visible.length === 0) return ''
  const header = [
    '# Skills',
    'Skills hold instructions for particular tasks. When a task matches a skill below, load it with the Skill tool (`skill`: its name, `args`: optional) before you start, and follow what it says. Do not load a skill that is already loaded in this conversation.',
  ].join('\n')
  const texts = visible.map((skill) => sanitize([skill.description, skill.whenToUse].filter(Boolean).join(' ')).slice(0, MAX_DESCRIPTION))
  const line = (skill: SkillDefinition, text: string) => `- ${skill.name}${text ? `: ${text}` : ''}`
  const full = visible.map((skill, index) => line(skill, texts[index]!))
  const size = (lines: string[]) => header.length + 1 + lines.reduce((sum, entry) => sum + entry.length + 1, 0)
  if (size(full) <= budget) return [header, ...full].join('\n')
  // Shorten every description to the same allowance; the names alone always stay.
  const fixed = size(visible.map((skill) => line(skill, '')))
  const allowance = Math.max(0, Math.floor((budget - fixed) / visible.length) - 3)
  const shortened = visible.map((skill, index) => {
    const text = texts[index]!
    return line(skill, text.length <= allowance ? text : allowance > 0 ? `${text.slice(0, allowance).trimEnd()}…` : '')
  })
  return [header, ...shortened].join('\n')
}

/** Control characters out, angle brackets escaped, whitespace collapsed. */
export function sanitize(text: string): string {
  return text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\s+/g, ' ')
    .trim()
}
