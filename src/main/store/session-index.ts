import { readdir, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { projectSlug } from '../base/paths'
import type { Message } from '../services/model/types'
import { adoptLegacyFile, adoptLegacySessions } from './legacy-sessions'
import { isSessionId, loadTranscript, sessionsDir, type LoadedTranscript } from './transcript'

/** One row of the session list. */
export interface SessionSummary {
  sessionId: string
  projectPath: string
  title: string
  createdAt: string
  updatedAt: string
  messageCount: number
  /** Lines of the transcript that could not be read and were left out (absent when none). */
  skippedLines?: number
}

/**
 * Lists the sessions of one project (or of every project), newest first. Reads each transcript
 * in full. A damaged file never breaks the list: bad lines are skipped (and counted in its row),
 * a lost header is rebuilt from the file's name and folder (whose name carries a digest of the
 * project's exact path), and a file that cannot be read at all is left out. So is a transcript
 * whose header names another project than the one asked for, or whose id could not be a path.
 */
export async function listSessions(home: string, projectPath?: string): Promise<SessionSummary[]> {
  const project = projectPath === undefined ? undefined : resolve(projectPath)
  // Sessions an earlier version filed under the project's old folder name join the current one.
  if (project) await adoptLegacySessions(home, project)
  const dirs = project ? [sessionsDir(home, project)] : await allSessionDirs(home)
  const loaded = (await Promise.all(dirs.map((dir) => loadFolder(dir, project)))).flat()
  return loaded
    .filter((item) => isSessionId(item.sessionId) && (project === undefined || resolve(item.projectPath) === project))
    .map(summarize)
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.sessionId.localeCompare(b.sessionId))
}

/** One stored transcript by its file, its header rebuilt from its folder's other sessions if lost. */
export async function loadStoredTranscript(file: string): Promise<LoadedTranscript | undefined> {
  const alone = await loadTranscript(file).catch(() => undefined)
  if (alone) return alone
  const dir = dirname(file)
  const project = await folderProject(dir, await jsonlFiles(dir))
  return project ? loadTranscript(file, { projectPath: project }).catch(() => undefined) : undefined
}

/** Every readable transcript of one sessions folder. */
async function loadFolder(dir: string, projectPath: string | undefined): Promise<LoadedTranscript[]> {
  const files = await jsonlFiles(dir)
  const first = await Promise.all(files.map((file) => loadTranscript(file, projectPath ? { projectPath } : undefined).catch(() => undefined)))
  const project = projectPath ?? (await folderProject(dir, [], first))
  const all = await Promise.all(
    first.map((item, index) => item ?? (project ? loadTranscript(files[index]!, { projectPath: project }).catch(() => undefined) : undefined)),
  )
  return all.filter((item): item is LoadedTranscript => item !== undefined)
}

/**
 * The project a sessions folder belongs to, as its readable transcripts name it — only when that
 * project's slug is the folder's, so a copied file cannot claim another project.
 */
async function folderProject(dir: string, files: string[], loaded?: Array<LoadedTranscript | undefined>): Promise<string | undefined> {
  const slug = basename(dirname(dir))
  const candidates = loaded ?? (await Promise.all(files.map((file) => loadTranscript(file).catch(() => undefined))))
  return candidates.find((item) => item && projectSlug(item.projectPath) === slug)?.projectPath
}

/** The row for one loaded transcript. */
export function summarize(transcript: LoadedTranscript): SessionSummary {
  return {
    sessionId: transcript.sessionId,
    projectPath: transcript.projectPath,
    // The first prompt the user typed (a compaction may have replaced the first message with a summary).
    title: transcript.title ?? defaultTitle(firstPrompt(transcript) ?? transcript.messages),
    createdAt: transcript.createdAt,
    updatedAt: transcript.updatedAt,
    messageCount: transcript.messages.length,
    ...(transcript.skipped.length > 0 && { skippedLines: transcript.skipped.length }),
  }
}

/** The first line of the first prompt, shortened: how a session is named until renamed. */
export function defaultTitle(messages: Message[]): string {
  for (const message of messages) {
    if (message.role !== 'user') continue
    const text = typeof message.content === 'string' ? message.content : message.content.find((block) => block.type === 'text')?.text
    if (text?.trim()) {
      const line = text.trim().split('\n')[0]!
      return line.length > 80 ? `${line.slice(0, 79)}…` : line
    }
  }
  return 'New session'
}

/** The first prompt of the first turn, as typed (turn_start events keep it whatever compaction did). */
function firstPrompt(transcript: LoadedTranscript): Message[] | undefined {
  const start = transcript.events.find((event) => event.type === 'turn_start')
  return start?.type === 'turn_start' && start.prompt.trim() ? [{ role: 'user', content: start.prompt }] : undefined
}

/**
 * The transcript file of a session id in any project, if there is one. An id that is not a
 * session id (`../../x`) finds nothing: it must never become a path.
 */
export async function findTranscriptFile(home: string, sessionId: string): Promise<string | undefined> {
  if (!isSessionId(sessionId)) return undefined
  for (const dir of await allSessionDirs(home)) {
    const file = join(dir, `${sessionId}.jsonl`)
    if ((await stat(file).catch(() => undefined))?.isFile()) return adoptLegacyFile(home, file)
  }
  return undefined
}

async function allSessionDirs(home: string): Promise<string[]> {
  const projects = await readdir(join(home, 'projects')).catch(() => [] as string[])
  return projects.map((slug) => join(home, 'projects', slug, 'sessions'))
}

async function jsonlFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[])
  const files = names.filter((name) => name.endsWith('.jsonl')).map((name) => join(dir, name))
  const checked = await Promise.all(files.map(async (file) => ((await stat(file).catch(() => undefined))?.isFile() ? file : undefined)))
  return checked.filter((file): file is string => file !== undefined)
}
