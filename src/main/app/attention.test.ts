import { describe, expect, it } from 'vitest'
import type { ApprovalRequested } from '../../shared/ipc/contract'
import { createEventHub } from '../base/event-hub'
import { appHandlers } from '../host/handlers/app'
import { approvalNotice, NOTICE_ACTIONS, startApprovalNotifications, type AttentionShell, type Notice } from './attention'

/** The Electron surface, recorded: what the desktop app would have shown and set. */
function recordingShell(focused: boolean) {
  const notices: Array<{ notice: Notice; action(index: number): void; click(): void; closed: boolean }> = []
  const badges: number[] = []
  let shown = 0
  const shell: AttentionShell & { focus: boolean } = {
    focus: focused,
    setBadgeCount: (count) => void badges.push(count),
    focused: () => shell.focus,
    notify(notice, on) {
      const entry = { notice, ...on, closed: false }
      notices.push(entry)
      return { close: () => void (entry.closed = true) }
    },
    show: () => void shown++,
  }
  return { shell, notices, badges, shown: () => shown }
}

const request = (id: string, preview: ApprovalRequested['preview'] = { kind: 'command', command: 'npm test' }): ApprovalRequested => ({
  id,
  sessionId: 'session-1',
  toolUseId: `toolu_${id}`,
  toolName: 'Bash',
  input: { command: 'npm test' },
  preview,
  explanation: { kind: 'default', text: 'asks by default' },
  suggestions: ['Bash(npm test)'],
})

describe('approval notifications (Electron absent)', () => {
  it('notify only while no window has the focus, with Allow once and Reject and never an "always"', async () => {
    const events = createEventHub()
    const { shell, notices } = recordingShell(true)
    const replies: Array<[string, string]> = []
    const stop = startApprovalNotifications({ shell, events, reply: async (id, decision) => void replies.push([id, decision]) })
    events.emit('approval.requested', request('a1'))
    expect(notices).toHaveLength(0)

    shell.focus = false
    events.emit('approval.requested', request('a2'))
    events.emit('approval.requested', request('a3'))
    expect(notices.map((n) => n.notice)).toEqual([
      { title: 'Sous needs your approval', body: 'Bash: npm test', actions: ['Allow once', 'Reject'] },
      { title: 'Sous needs your approval', body: 'Bash: npm test', actions: ['Allow once', 'Reject'] },
    ])
    expect(notices.flatMap((n) => n.notice.actions).some((action) => /always|session/i.test(action))).toBe(false)
    notices[0]!.action(0)
    notices[1]!.action(1)
    expect(replies).toEqual([
      ['a2', 'allow_once'],
      ['a3', 'reject'],
    ])
    // An index past the two answers does nothing.
    notices[0]!.action(2)
    expect(replies).toHaveLength(2)

    // Answered elsewhere: the notification goes away.
    events.emit('approval.resolved', { id: 'a2', sessionId: 'session-1', outcome: 'allowed_once' })
    expect(notices[0]!.closed).toBe(true)
    expect(notices[1]!.closed).toBe(false)
    stop()
    expect(notices[1]!.closed).toBe(true)
  })

  it('brings the window forward on a click, and offers no answers for a plan', () => {
    const events = createEventHub()
    const { shell, notices, shown } = recordingShell(false)
    const replies: string[] = []
    startApprovalNotifications({ shell, events, reply: async (id) => void replies.push(id) })
    events.emit('approval.requested', request('p1', { kind: 'plan', plan: '# Plan' }))
    expect(notices[0]!.notice.actions).toEqual([])
    notices[0]!.action(0)
    expect(replies).toEqual([])
    notices[0]!.click()
    expect(shown()).toBe(1)
    expect(approvalNotice(request('x')).actions).toBe(NOTICE_ACTIONS)
  })

  it('sets the dock badge from the inbox count, and is a no-op without a desktop shell', async () => {
    const { shell, badges } = recordingShell(false)
    await appHandlers({ version: '0', transport: 'electron', badge: shell })['app.setBadgeCount']({ count: 3 }, {} as never)
    expect(badges).toEqual([3])
    await expect(Promise.resolve(appHandlers({ version: '0', transport: 'browser' })['app.setBadgeCount']({ count: 2 }, {} as never))).resolves.toBeUndefined()
  })
})
