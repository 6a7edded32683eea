import type { AgentEvent } from '../../shared/protocol/agent-event'
import type { TranscriptSaveReport } from './transcript-file'

/**
 * The notice a transcript's saving report becomes (see {@link TranscriptSaveReport}): one when the
 * disk refuses, one when it takes the held lines, one when too much waits and saving stops, one when the session closes with lines unsaved.
 * Each names the file and the system's error, so the user knows what to free and what was lost.
 * `whose` is how the transcript is named to the user ("this session's", "the subagent's").
 */
export function saveNotice(report: TranscriptSaveReport, identity: Pick<AgentEvent, 'sessionId' | 'agentId' | 'parentToolUseId'>, whose: string): Extract<AgentEvent, { type: 'notice' }> {
  const base = { ...identity, type: 'notice' as const, topic: 'storage' as const }
  switch (report.kind) {
    case 'failing':
      return { ...base, level: 'error', message: `${capital(whose)} transcript could not be saved to ${report.path}: ${report.error}. The session goes on; what is said from now on is kept in memory and written there, in order, once the disk takes it again (free some space). If Sous closes first, that part is lost.` }
    case 'saved':
      return { ...base, level: 'info', message: `${capital(whose)} transcript is saved again: ${report.written === 1 ? 'the entry that waited in memory was' : `the ${report.written} entries that waited in memory were`} written to ${report.path}.` }
    case 'capped':
      return { ...base, level: 'error', message: `${capital(whose)} transcript has stopped saving: more than ${megabytes(report.limitBytes)} waited in memory for ${report.path} (${report.error}). The ${lines(report.held)} held so far are still written once the disk takes them; nothing said from now on is kept, so resuming it will end there.` }
    case 'lost':
      return { ...base, level: 'error', message: `${capital(whose)} transcript lost its last ${lines(report.lost)}: they could not be written to ${report.path} before it closed (${report.error}). Resuming it will miss that part of the conversation.` }
  }
}

function lines(count: number): string {
  return count === 1 ? '1 entry' : `${count} entries`
}

function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${bytes} bytes`
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
