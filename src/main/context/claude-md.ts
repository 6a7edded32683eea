import { readFile } from 'node:fs/promises'
import { join } from 'node:path'

/** Longest instruction file we include; the rest is cut with a note (a runaway file must not eat the context). */
export const MAX_INSTRUCTION_CHARS = 40_000

/** One instruction file found on disk. */
export interface InstructionFile {
  /** Where it applies: the user's global file, the project's shared files, or the private local one. */
  scope: 'user' | 'project' | 'local'
  path: string
  content: string
}

/**
 * The CLAUDE.md files that apply to a project, in increasing priority (later ones win where they
 * conflict): `~/.claude/CLAUDE.md`, `<project>/CLAUDE.md`, `<project>/.claude/CLAUDE.md`,
 * `<project>/CLAUDE.local.md`. Missing or unreadable files are skipped; empty ones too.
 */
export async function loadInstructionFiles(projectRoot: string, homeDir: string): Promise<InstructionFile[]> {
  const candidates: Array<Omit<InstructionFile, 'content'>> = [
    { scope: 'user', path: join(homeDir, '.claude', 'CLAUDE.md') },
    { scope: 'project', path: join(projectRoot, 'CLAUDE.md') },
    { scope: 'project', path: join(projectRoot, '.claude', 'CLAUDE.md') },
    { scope: 'local', path: join(projectRoot, 'CLAUDE.local.md') },
  ]
  const found = await Promise.all(
    candidates.map(async (candidate) => {
      const content = await readFile(candidate.path, 'utf8').catch(() => undefined)
      if (content === undefined || content.trim() === '') return undefined
      return { ...candidate, content: truncate(content) }
    }),
  )
  return found.filter((file): file is InstructionFile => file !== undefined)
}

function truncate(content: string): string {
  if (content.length <= MAX_INSTRUCTION_CHARS) return content
  return `${content.slice(0, MAX_INSTRUCTION_CHARS)}\n… (truncated: the file has ${content.length} characters)`
}

/** Renders the files for the system prompt, each under a header naming its path and scope. */
export function renderInstructionFiles(files: InstructionFile[]): string {
  if (files.length === 0) return ''
  const label = { user: "user's private global instructions", project: 'project instructions, shared', local: "user's private project instructions" }
  const parts = files.map((file) => `Contents of ${file.path} (${label[file.scope]}):\n\n${file.content.trim()}`)
  return `# CLAUDE.md instructions\nThese instructions OVERRIDE default behaviour; follow them exactly as written.\n\n${parts.join('\n\n')}`
}
