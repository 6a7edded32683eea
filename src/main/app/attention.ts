import type { ApprovalRequested } from '../../shared/ipc/contract'
import type { EventHub } from '../base/event-hub'

/**
 * The desktop side of the attention inbox: the dock / taskbar badge, and a native notification for
 * each approval that arrives while no window has the focus, with *Allow once* and *Reject* as its
 * actions — never an "always" answer, which deserves the card and its rule editor. Electron sits
 * behind {@link AttentionShell} (`index.ts` builds it over `app.setBadgeCount` and
 * `Notification`), so this is tested with Electron absent, as the rest of the window code is.
 */

/** What a native notification shows. */
export interface Notice {
  title: string
  body: string
  /** Buttons, in order; an action's index comes back through `onAction`. */
  actions: readonly string[]
}

/** The Electron surface this module uses. */
export interface AttentionShell {
  setBadgeCount(count: number): void
  /** Whether a window of the app has the focus. */
  focused(): boolean
  /** Shows a notification; `close` takes it away (the approval was answered elsewhere). */
  notify(notice: Notice, on: { action(index: number): void; click(): void }): { close(): void }
  /** Brings the window forward (the user clicked the notification itself). */
  show(): void
}

/** The only answers a notification may give. */
export const NOTICE_ACTIONS = ['Allow once', 'Reject'] as const
const DECISIONS = ['allow_once', 'reject'] as const

/** The notification for an approval: what asks, and the two answers. */
export function approvalNotice(request: ApprovalRequested): Notice {
  const preview = request.preview
  const subject =
    preview?.kind === 'command' ? preview.command : preview?.kind === 'diff' ? preview.filePath : preview?.kind === 'path' ? preview.path : preview?.kind === 'url' ? preview.url : undefined
  const who = request.agent ? `${request.agent.type} › ` : ''
  if (preview?.kind === 'plan') return { title: 'Sous: a plan waits for your review', body: `${who}${request.toolName}`, actions: [] }
  return { title: 'Sous needs your approval', body: `${who}${request.toolName}${subject ? `: ${subject}` : ''}`, actions: NOTICE_ACTIONS }
}

export interface ApprovalNotificationsDeps {
  shell: AttentionShell
  events: EventHub
  /** Answers an approval the way the card would (`approval.reply`). */
  reply(id: string, decision: (typeof DECISIONS)[number]): Promise<unknown>
}

/**
 * Shows a notification for each approval requested while the app is in the background, answers it
 * from the notification's actions, and closes it when the approval is settled anywhere.
 * Returns the function that stops it (and closes what is still shown).
 */
export function startApprovalNotifications({ shell, events, reply }: ApprovalNotificationsDeps): () => void {
  const shown = new Map<string, { close(): void }>()
  const stop = events.subscribe((channel, payload) => {
    if (channel === 'approval.requested') {
      const request = payload as ApprovalRequested
      if (shell.focused() || shown.has(request.id)) return
      const notice = approvalNotice(request)
      shown.set(
        request.id,
        shell.notify(notice, {
          action: (index) => {
            const decision = notice.actions.length > 0 ? DECISIONS[index] : undefined
            if (decision) void reply(request.id, decision)
          },
          click: () => shell.show(),
        }),
      )
    } else if (channel === 'approval.resolved') {
      const { id } = payload as { id: string }
      shown.get(id)?.close()
      shown.delete(id)
    }
  })
  return () => {
    stop()
    for (const notice of shown.values()) notice.close()
    shown.clear()
  }
}
