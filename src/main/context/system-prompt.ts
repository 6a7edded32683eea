import { homedir } from 'node:os'
import type { TextBlock } from '../services/model/types'
import { loadInstructionFiles, renderInstructionFiles } from './claude-md'
import { environmentInfo, renderEnvironment } from './environment'
import { STATIC_SYSTEM_PROMPT } from './static-prompt'

/** Options for {@link buildSystemPrompt}. */
export interface SystemPromptOptions {
  cwd: string
  projectRoot: string
  /** Where `~/.claude/CLAUDE.md` lives (tests point it at a temp dir). */
  homeDir?: string
  now?: Date
  /** Extra text appended to the dynamic part (e.g. `--append-system-prompt`). */
  append?: string
  /** The memory section (instructions and the memory indexes), placed after the CLAUDE.md files. */
  memory?: string | Promise<string>
}

/**
 * The system prompt as two blocks with the boundary between them: the static block (the same
 * bytes for everyone) and the dynamic block (environment and CLAUDE.md files of this project).
 * Each carries a cache breakpoint, so tools + static prompt are cached across projects and the
 * dynamic block across the requests of a session; the messages take the other two breakpoints
 * (see `withMessageBreakpoints`).
 */
export async function buildSystemPrompt(options: SystemPromptOptions): Promise<TextBlock[]> {
  const [env, files, memory] = await Promise.all([
    environmentInfo(options.cwd, options.now),
    loadInstructionFiles(options.projectRoot, options.homeDir ?? homedir()),
    options.memory ?? '',
  ])
  const dynamic = [renderEnvironment(env), renderInstructionFiles(files), memory, options.append ?? '']
    .filter((part) => part.trim() !== '')
    .join('\n\n')
  return [
    { type: 'text', text: STATIC_SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } },
    { type: 'text', text: dynamic, cache_control: { type: 'ephemeral' } },
  ]
}
