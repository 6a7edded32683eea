/**
 * Skills (`.claude/skills/<name>/SKILL.md`) and custom slash commands (`.claude/commands/*.md`)
 * in Claude Code's formats. Both are prompt templates with frontmatter; a skill also has a folder
 * of supporting files and can be invoked by the model through the Skill tool.
 */

/** Whose folder a template came from. The user's wins over the project's on a name clash. */
export type ExtensionSource = 'project' | 'user'

/** A file that could not be loaded, or a field that was ignored; never fatal. */
export interface ExtensionProblem {
  file: string
  message: string
  /** `error`: the file was skipped; `warning`: it loaded without the field named. */
  level: 'error' | 'warning'
}

/** What skills and commands share. */
export interface PromptTemplate {
  /** The name typed after `/` (a skill's folder name, a command's file name). */
  name: string
  source: ExtensionSource
  /** The Markdown file. */
  file: string
  description: string
  argumentHint?: string
  /** `arguments` frontmatter: names for `$name` substitution, by position. */
  argumentNames: string[]
  /** `allowed-tools`: permission rules granted for the turn that uses the template. */
  allowedTools: string[]
  /**
   * `model`: the model while it is active (`inherit` or absent: the caller's). Inline, the rest of
   * the turn that uses it; forked, its subagent's model.
   */
  model?: string
  /**
   * `context: fork`: it runs as a subagent, loaded by the Skill tool or typed (see tools/skill,
   * session/forked-skill-turn). Commands share the field: Claude Code merged them into skills.
   */
  fork: boolean
  /** `agent`: the subagent type when it forks (general-purpose when absent). */
  agent?: string
  /** The Markdown after the frontmatter. */
  body: string
}

/** A skill: a folder with a `SKILL.md`. */
export interface SkillDefinition extends PromptTemplate {
  kind: 'skill'
  /** The folder holding `SKILL.md` (its files become readable once the skill is loaded). */
  dir: string
  /** `name` frontmatter: the label in listings (the command is still the folder name). */
  displayName: string
  whenToUse?: string
  /** `disable-model-invocation`: only the user may run it (`/name`); not in the model's catalog. */
  disableModelInvocation: boolean
  /** `user-invocable: false`: only the model may load it. */
  userInvocable: boolean
}

/** A custom slash command: one Markdown file. */
export interface CommandDefinition extends PromptTemplate {
  kind: 'command'
}

/** Everything found, with what could not be loaded. */
export interface ExtensionCatalog {
  skills: SkillDefinition[]
  commands: CommandDefinition[]
  problems: ExtensionProblem[]
}
