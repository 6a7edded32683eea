import { useEffect, useMemo } from 'react'
import { api } from '../api'
import { describeRequest } from '../features/approvals/describe'
import type { InboxRow } from '../features/inbox/InboxDialog'
import { useProjects } from '../features/projects/store'
import { usePendingApprovals } from '../state/approvals'
import { learnProject, markSeen, useInboxFacts } from '../state/inbox'
import { approvalEntry, inboxList } from '../state/inbox-model'
import { sessionOnScreen } from '../state/session'
import { focusWhenShown } from './show-view'
import { useTerminals } from '../features/terminal/store'

/**
 * The shell's glue for the attention inbox: the rows (the host's pending approvals, named the way
 * their cards name them, and the entries session events brought), the count in the window title
 * and on the dock badge, and opening an entry's card.
 */
export function useInboxRows(): InboxRow[] {
  const queue = usePendingApprovals((state) => state.queue)
  const events = useInboxFacts((state) => state.events)
  const projects = useInboxFacts((state) => state.projects)
  const open = useProjects((state) => state.openProjects)
  // An approval of a session this page has not seen yet (another page started it): find its project.
  useEffect(() => {
    for (const request of queue) if (!projects[request.sessionId]) void learnProject(request.sessionId)
  }, [queue, projects])
  return useMemo(() => {
    // Approvals carry no time: they come first, in the order they arrived, then the rest by time.
    const approvals = queue.map((request, index) => approvalEntry(request, describeRequest, index))
    return inboxList(approvals, events).map((entry) => {
      const path = projects[entry.sessionId]
      const name = open.find((project) => project.path === path)?.name ?? (path ? path.slice(path.lastIndexOf('/') + 1) : 'a session')
      return { ...entry, projectName: name }
    })
  }, [queue, events, projects, open])
}

/** The title bar and the dock badge say how much waits: "(3) Sous" and a badge of 3. */
export function useAttentionCount(count: number): void {
  useEffect(() => {
    document.title = count > 0 ? `(${count}) Sous` : 'Sous'
    // Electron sets the dock/taskbar badge; the browser host has none and answers with a no-op.
    void api.invoke('app.setBadgeCount', { count })
  }, [count])
}

/** Where an entry's card is, to be focused once the user opened the entry. */
const CARD: Record<InboxRow['kind'], string> = {
  approval: '[aria-label="Approvals"]',
  plan: '[aria-label="Approvals"]',
  question: '[aria-label="Approvals"]',
  pause: '.pause-card',
  input: '[role="tabpanel"]:not([hidden]) .xterm-helper-textarea',
  finished: 'textarea[aria-label="Message"], [aria-label="Message"]',
  failed: 'textarea[aria-label="Message"], [aria-label="Message"]',
  scheduled: 'textarea[aria-label="Message"], [aria-label="Message"]',
  peer: 'textarea[aria-label="Message"], [aria-label="Message"]',
}

/**
 * Opens an entry: its project and session come on screen and its card gets the focus (the user
 * asked for it; nothing moves focus on its own).
 */
export function openInboxEntry(row: InboxRow, openSession: (sessionId: string, projectPath: string) => void): void {
  const path = useInboxFacts.getState().projects[row.sessionId]
  markSeen(row.sessionId)
  if (path && sessionOnScreen().sessionId !== row.sessionId) openSession(row.sessionId, path)
  // The card of the session on screen now may be another one's: wait for this session first.
  const until = performance.now() + SWITCH_WAIT_MS
  const wait = () => {
    if (sessionOnScreen().sessionId === row.sessionId) {
      // A command waiting for input: its Agent terminal comes to the front to be typed in.
      if (row.kind === 'input' && path) showAgentTerminal(path)
      focusWhenShown(CARD[row.kind])
    }
    else if (performance.now() < until) requestAnimationFrame(wait)
  }
  wait()
}

/** How long opening another project and its session may take before the focus is left alone. */
const SWITCH_WAIT_MS = 5000

/** Puts a project's Agent terminal in front. */
function showAgentTerminal(projectPath: string): void {
  const terminals = useTerminals.getState()
  const agent = terminals.terminals.find((t) => t.projectPath === projectPath && t.kind === 'agent')
  if (agent) terminals.select(projectPath, agent.key)
}
