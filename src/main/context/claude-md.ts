import { join } from 'node:path'
import { InstructionBudget, readInstructionFile, type InstructionFile, type InstructionReading } from './instruction-files'

export { MAX_INSTRUCTION_CHARS, type InstructionFile } from './instruction-files'

/**
 * The CLAUDE.md files that apply to a project, in increasing priority (later ones win where they
 * conflict): `~/.claude/CLAUDE.md`, `<project>/CLAUDE.md`, `<project>/.claude/CLAUDE.md`,
 * `<project>/CLAUDE.local.md`, each followed by what it imports. Missing or unreadable files are
 * skipped; empty ones too. `budget` is shared with the subfolder files the session loads later.
 */
export async function loadInstructionFiles(projectRoot: string, homeDir: string, budget = new InstructionBudget()): Promise<InstructionReading> {
  const candidates: Array<Pick<InstructionFile, 'scope' | 'path'>> = [
    { scope: 'user', path: join(homeDir, '.claude', 'CLAUDE.md') },
    { scope: 'project', path: join(projectRoot, 'CLAUDE.md') },
    { scope: 'project', path: join(projectRoot, '.claude', 'CLAUDE.md') },
    { scope: 'local', path: join(projectRoot, 'CLAUDE.local.md') },
  ]
  const reading: InstructionReading = { files: [], notes: [] }
  for (const candidate of candidates) readInstructionFile(candidate.path, { scope: candidate.scope, projectRoot, homeDir, budget }, reading)
  return reading
}

const LABELS: Record<InstructionFile['scope'], string> = {
  user: "user's private global instructions",
  project: 'project instructions, shared',
  local: "user's private project instructions",
  subfolder: 'instructions for a subfolder of the project',
}

/** One file's header and content. */
export function renderInstructionFile(file: InstructionFile): string {
  const imported = file.importedBy ? `, imported by ${file.importedBy}` : ''
  return `Contents of ${file.path} (${LABELS[file.scope]}${imported}):\n\n${file.content.trim()}`
}

/** Renders the files for the system prompt, each under a header naming its path and scope. */
export function renderInstructionFiles(files: readonly InstructionFile[]): string {
  if (files.length === 0) return ''
  return `# CLAUDE.md instructions\nThese instructions OVERRIDE default behaviour; follow them exactly as written.\n\n${files.map(renderInstructionFile).join('\n\n')}`
}
