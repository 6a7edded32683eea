import { useEffect, useState } from 'react'
import type { RequestOutput } from '../../../../shared/ipc/contract'
import { api } from '../../api'
import { filesLine, type Mark } from './model'

type CallFiles = RequestOutput<'checkpoints.callFiles'>

/** Answers that will not change (the tree the call left is recorded), by session and call. */
const settled = new Map<string, CallFiles>()

/**
 * The tip's line of files for a mark. The edit tools name their files in their events; for any
 * other call (a Bash command, an MCP tool) the checkpoints before and after it say which files
 * differ, asked of main when the tip first shows the mark (`checkpoints.callFiles`), kept once
 * recorded. Until the answer comes, and for marks that are not calls, the events' line.
 */
export function useFilesLine(sessionId: string, mark: Mark | undefined): string {
  const toolUseId = mark && mark.files.length === 0 && (mark.kind === 'command' || mark.kind === 'tool') && mark.id.startsWith('tool:') ? mark.id.slice('tool:'.length) : undefined
  const key = toolUseId && `${sessionId}:${toolUseId}`
  const [answer, setAnswer] = useState<{ key: string; files: CallFiles } | undefined>()
  const running = mark?.state === 'running'
  useEffect(() => {
    if (!key || !toolUseId || running) return
    const known = settled.get(key)
    if (known) return setAnswer({ key, files: known })
    let current = true
    void api.invoke('checkpoints.callFiles', { sessionId, toolUseId }).then((result) => {
      if (!result.ok) return
      if (result.value.state !== 'pending') settled.set(key, result.value)
      if (current) setAnswer({ key, files: result.value })
    })
    return () => {
      current = false
    }
  }, [key, sessionId, toolUseId, running])
  if (!mark) return ''
  if (!key || answer?.key !== key) return filesLine(mark)
  return callFilesLine(answer.files)
}

/** How the tip says what the checkpoints know of a call's files. */
export function callFilesLine(files: CallFiles): string {
  switch (files.state) {
    case 'recorded':
      return files.files.length === 0 ? 'No files changed' : `Files changed: ${files.files.join(', ')}${files.more > 0 ? ` and ${files.more} more` : ''}`
    case 'pending':
      return 'Files changed: still being recorded'
    case 'missing':
      return 'Files changed: unknown (a checkpoint around this call was not recorded)'
    case 'none':
      return 'No files changed (no checkpoint around this call: it only reads, or checkpoints are off)'
  }
}
