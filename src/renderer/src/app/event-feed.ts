import { receiveRemoteConnection } from '../features/projects/remote-store'
import { api, connection } from '../api'
import { receiveTreeEvent, reloadTree } from '../features/agents/store'
import { notifyApproval } from '../features/approvals/store'
import { receiveChatEvent } from '../features/chat/store'
import { receiveContextEvent } from '../features/context/store'
import { receiveHookRun, receiveMcpStatus } from '../features/extensions/store'
import { receiveMemoryChange } from '../features/memory/store'
import { receiveParallelChange } from '../features/parallel/store'
import { receiveTaskEvent } from '../features/tasks/store'
import { receiveTimelineApproval, receiveTimelineEvent, receiveTimelineHook, receiveTimelineResolution } from '../features/timeline/store'
import { addApproval, refreshApprovals, removeApproval } from '../state/approvals'
import { markSeen, noteSessionProject, receiveInboxEvent, receiveInputWait } from '../state/inbox'
import { useSessionOnScreen } from '../state/session'
import { noteFilesChange } from './use-files-revision'

/**
 * The one owner of the renderer's always-on event subscriptions: every event the host pushes
 * reaches the shared state (`state/`) and the features' stores from here, so no module subscribes
 * as a side effect of being imported, and the list of who hears what is this one page.
 *
 * Each consumer has a listener of its own (not one listener calling all of them): the api's
 * listener registry reports a listener that throws and still runs the others, and one feature's
 * bug must not starve the rest. Subscriptions that live and die with one mounted thing stay with
 * it — a terminal's PTY output (`features/terminal/wire-*.ts`), the trust dialog's re-check, the
 * Agent terminal's history hand-off (`api/session-history.ts`), the desktop's "open this folder"
 * request (`App.tsx`).
 *
 * Returns a function that ends every subscription (for tests; the window never stops it).
 */
export function startEventFeed(): () => void {
  const stops = [
    api.on('agent.event', receiveChatEvent),
    api.on('agent.event', receiveTreeEvent),
    api.on('agent.event', receiveTaskEvent),
    api.on('agent.event', receiveContextEvent),
    api.on('agent.event', noteFilesChange),
    api.on('agent.event', receiveInboxEvent),
    api.on('agent.inputWait', receiveInputWait),
    // The inbox names each session's project, and a run's ending is seen once its session is on screen.
    useSessionOnScreen.subscribe(({ projectPath, sessionId }) => {
      if (!sessionId) return
      if (projectPath) noteSessionProject(sessionId, projectPath)
      markSeen(sessionId)
    }),
    api.on('agent.event', receiveTimelineEvent),
    api.on('approval.requested', addApproval),
    api.on('approval.requested', notifyApproval),
    api.on('approval.resolved', ({ id }) => removeApproval(id)),
    api.on('approval.requested', receiveTimelineApproval),
    api.on('approval.resolved', receiveTimelineResolution),
    api.on('mcp.status', receiveMcpStatus),
    api.on('hooks.ran', receiveHookRun),
    api.on('hooks.ran', receiveTimelineHook),
    api.on('memory.changed', (change) => void receiveMemoryChange(change)),
    api.on('remote.connection', receiveRemoteConnection),
    api.on('parallel.changed', receiveParallelChange),
    // Events missed while the link was down: the host's lists are the truth after a reconnect.
    connection.onState((state) => {
      if (state !== 'open') return
      void refreshApprovals()
      void reloadTree()
    }),
  ]
  void refreshApprovals()
  return () => {
    for (const stop of stops) stop()
  }
}
