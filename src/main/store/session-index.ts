import { readdir, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Message } from '../services/model/types'
import { isSessionId, loadTranscript, sessionsDir, type LoadedTranscript } from './transcript'

/** One row of the session list. */
export interface SessionSummary {
  sessionId: string
  projectPath: string
  title: string
  createdAt: string
  updatedAt: string
  messageCount: number
}

/**
 * Lists the sessions of one project (or of every project), newest first. Reads each transcript
 * in full; a file that cannot be read or has no header line is left out, and so is a transcript
 * whose header names another project than the one asked for (the folder name is never the only proof).
 */
export async function listSessions(home: string, projectPath?: string): Promise<SessionSummary[]> {
  const project = projectPath === undefined ? undefined : resolve(projectPath)
  const dirs = project ? [sessionsDir(home, project)] : await allSessionDirs(home)
  const files = (await Promise.all(dirs.map(jsonlFiles))).flat()
  const loaded = await Promise.all(files.map((file) => loadTranscript(file)))
  return loaded
    .filter((item): item is LoadedTranscript => item !== undefined && isSessionId(item.sessionId) && (project === undefined || resolve(item.projectPath) === project))
    .map(summarize)
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
}

/** The row for one loaded transcript. */
export function summarize(transcript: LoadedTranscript): SessionSummary {
  return {
    sessionId: transcript.sessionId,
    projectPath: transcript.projectPath,
    title: transcript.title ?? defaultTitle(transcript.messages),
    createdAt: transcript.createdAt,
    updatedAt: transcript.updatedAt,
    messageCount: transcript.messages.length,
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

/**
 * The transcript file of a session id in any project, if there is one. An id that is not a
 * session id (`../../x`) finds nothing: it must never become a path.
 */
export async function findTranscriptFile(home: string, sessionId: string): Promise<string | undefined> {
  if (!isSessionId(sessionId)) return undefined
  for (const dir of await allSessionDirs(home)) {
    const file = join(dir, `${sessionId}.jsonl`)
    if ((await stat(file).catch(() => undefined))?.isFile()) return file
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
