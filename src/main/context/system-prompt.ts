import { startupMark } from '../base/startup-marks'
import { homedir } from 'node:os'
import type { TextBlock } from '../services/model/types'
import { loadInstructionFiles, renderInstructionFiles, type InstructionFile } from './claude-md'
import { environmentInfo, renderEnvironment } from './environment'
import { readGitStatus, renderGitStatus, type GitReading } from './git-status'
import type { InstructionBudget } from './instruction-files'
import { STATIC_SYSTEM_PROMPT } from './static-prompt'

/**
 * A named part of the dynamic prompt another feature provides (the memory index, MEMORY.md, goes
 * here): its text is placed after the CLAUDE.md files, and the context view sizes it by name.
 */
export interface PromptSection {
  /** What it is, for the context view ("Memory index"). */
  name: string
  text: string
  /** The file it came from, if any. */
  path?: string
}

/** Options for {@link assembleSystemPrompt}. */
export interface SystemPromptOptions {
  cwd: string
  projectRoot: string
  /** Where `~/.claude/CLAUDE.md` lives (tests point it at a temp dir). */
  homeDir?: string
  now?: Date
  /** Extra text appended to the dynamic part (e.g. `--append-system-prompt`). */
  append?: string
  /** The first block in place of Sous's own prompt (a subagent's instructions). */
  base?: string
  /** Leave out CLAUDE.md files and the git line (the Explore agent's lean prompt). */
  lean?: boolean
  /** Parts other features add to the dynamic prompt (the skill catalog, the memory index). */
  sections?: readonly PromptSection[]
  /** Git status is read unless this is false (tests of other parts skip it). */
  git?: boolean
  /** Shared with the subfolder CLAUDE.md files the session loads later (each file once, one size cap). */
  budget?: InstructionBudget
}

/** The system prompt, and what it is made of (for the context view). */
export interface SystemPrompt {
  blocks: TextBlock[]
  /** The static part: the same bytes for every user, project and day. */
  staticText: string
  /** The dynamic part, piece by piece, in order. */
  parts: {
    environment: string
    git: string
    instructions: InstructionFile[]
    /** What was left out of the instruction files, and why. */
    instructionNotes: string[]
    sections: PromptSection[]
    append: string
  }
  git: GitReading
}

/**
 * The system prompt as two blocks with the boundary between them: the static block (the same
 * bytes for everyone) and the dynamic block (environment, git status, CLAUDE.md files, sections
 * such as the memory index, appended text). Each carries a cache breakpoint, so tools + static
 * prompt are cached across projects and the dynamic block across the requests of a session; the
 * messages take the other two breakpoints (see `withMessageBreakpoints`). Built once per session:
 * what changes later reaches the model as reminders, never as a new system prompt.
 */
export async function assembleSystemPrompt(options: SystemPromptOptions): Promise<SystemPrompt> {
  const [env, reading, git] = await Promise.all([
    environmentInfo(options.cwd, options.now),
    options.lean ? { files: [], notes: [] } : loadInstructionFiles(options.projectRoot, options.homeDir ?? homedir(), options.budget),
    options.git === false || options.lean ? Promise.resolve<GitReading>({ kind: 'not_a_repository' }) : readGitStatus(options.cwd),
  ])
  const parts: SystemPrompt['parts'] = {
    environment: renderEnvironment(env, { git: !options.lean }),
    git: renderGitStatus(git),
    instructions: reading.files,
    instructionNotes: reading.notes,
    sections: [...(options.sections ?? [])].filter((section) => section.text.trim() !== ''),
    append: options.append ?? '',
  }
  const dynamic = [parts.environment, parts.git, renderInstructionFiles(parts.instructions), ...parts.sections.map((section) => section.text), parts.append]
    .filter((part) => part.trim() !== '')
    .join('\n\n')
  const staticText = options.base ?? STATIC_SYSTEM_PROMPT
  startupMark('prompt')
  return {
    blocks: [
      { type: 'text', text: staticText, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: dynamic, cache_control: { type: 'ephemeral' } },
    ],
    staticText,
    parts,
    git,
  }
}

/** The system prompt's blocks alone (see {@link assembleSystemPrompt}). */
export async function buildSystemPrompt(options: SystemPromptOptions): Promise<TextBlock[]> {
  return (await assembleSystemPrompt(options)).blocks
}
