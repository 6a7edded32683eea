import { useEffect, useRef, type KeyboardEvent } from 'react'
import type { ApprovalRequested, RequestInput } from '../../../../shared/ipc/contract'
import { lazyNamed } from '../../lib/lazy'
import { LazyBoundary } from '../../lib/LazyBoundary'
import { preloadMonaco } from '../../lib/monaco-preload'
import { ofSession } from '../../state/approval-queue'
import { usePendingApprovals } from '../../state/approvals'
import { setReviewWide, useLayout } from '../../state/layout'
import { ApprovalChoices } from './ApprovalChoices'
import { CommandApproval } from './CommandApproval'
import { PlanApproval } from './PlanApproval'
import { QuestionCard } from './QuestionCard'
import { describeRequest } from './describe'
import { shortcutAction } from './shortcuts'
import { useApprovalAnswers } from './store'
import { warmMonacoOnEdits } from './warm-monaco'
import './approvals.css'

/** The diff review (with Monaco behind it) is its own chunk: nothing of it loads before first paint. */
const EditApproval = lazyNamed(() => import('./EditApproval'), 'EditApproval')

/**
 * The approvals of one session: a queue with a count and the oldest request in full. Shortcuts:
 * `y` / `n` approve or reject while focus is in the panel (not in a text field or the diff editor);
 * Ctrl+Alt+Y / Ctrl+Alt+N from anywhere. Nothing here ever moves focus by itself.
 */
export function ApprovalPanel({ sessionId, onOpenPlan }: { sessionId: string | null; onOpenPlan?: (sessionId: string) => Promise<string | null> }) {
  const queue = usePendingApprovals((state) => state.queue)
  const answering = useApprovalAnswers((state) => state.answering)
  const errors = useApprovalAnswers((state) => state.errors)
  const reply = useApprovalAnswers((state) => state.reply)
  const pending = ofSession(queue, sessionId)
  const head = pending[0]
  const panel = useRef<HTMLElement>(null)
  // Expanded, the review takes the work area's full width (the shell's terminals yield); remembered.
  const wide = useLayout((state) => state.reviewWide)

  // Load the diff review and fetch Monaco in the first idle moment after the chat appears, so the
  // first edit approval waits for no download. Monaco is fetched and compiled, not evaluated: its
  // evaluation is one long task (90–300 ms), which must not be in the window's start (issue 30);
  // it runs when the agent starts an edit (`warmMonacoOnEdits`). (A failure here is retried when an
  // approval needs them.)
  useEffect(() => {
    const warm = () => {
      EditApproval.preload().catch(() => undefined)
      preloadMonaco()
    }
    const id = requestIdleCallback(warm, { timeout: 2000 })
    const stopWarming = warmMonacoOnEdits()
    return () => {
      cancelIdleCallback(id)
      stopWarming()
    }
  }, [])

  const press = (action: 'approve' | 'reject'): boolean => {
    const button = panel.current?.querySelector<HTMLButtonElement>(`[data-approval-action="${action}"]:not(:disabled)`)
    button?.click()
    return !!button
  }

  useEffect(() => {
    if (!head) return
    const onKey = (event: globalThis.KeyboardEvent) => {
      const action = shortcutAction(event, { global: true })
      if (action && press(action)) event.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [head])

  if (!head) return null
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const action = shortcutAction(event.nativeEvent, { global: false })
    if (action && press(action)) event.preventDefault()
  }
  const send = (input: RequestInput<'approval.reply'>) => void reply(input)

  return (
    <section ref={panel} className={`approval${wide && head.preview?.kind === 'diff' ? ' approval--wide' : ''}`} aria-label="Approvals" onKeyDown={onKeyDown} tabIndex={-1}>
      <header className="approval__header">
        <h3 className="approval__title">
          Needs your approval
          <span className="approval__count" aria-label={`${pending.length} pending`}>
            {pending.length}
          </span>
        </h3>
        {head.preview?.kind === 'diff' && (
          <button type="button" className="button button--small button--quiet approval__expand" aria-pressed={wide} onClick={() => setReviewWide(!wide)}>
            {wide ? 'Shrink' : 'Expand'}
          </button>
        )}
        {pending.length > 1 && (
          <ol className="approval__queue" aria-label="Queued approvals">
            {pending.slice(1).map((request) => (
              <li key={request.id}>{describeRequest(request)}</li>
            ))}
          </ol>
        )}
      </header>
      <ApprovalCard key={head.id} request={head} busy={answering.has(head.id)} error={errors[head.id]} onReply={send} {...(onOpenPlan && { onOpenPlan: () => onOpenPlan(head.sessionId) })} />
    </section>
  )
}

interface ApprovalCardProps {
  request: ApprovalRequested
  busy: boolean
  error?: string
  onReply(input: RequestInput<'approval.reply'>): void
  onOpenPlan?(): Promise<string | null>
}

function ApprovalCard({ request, busy, error, onReply, onOpenPlan }: ApprovalCardProps) {
  const preview = request.preview
  return (
    <article className="approval__card" aria-label={`Approve ${describeRequest(request)}`} data-testid="approval-card">
      <p className="approval__summary">
        {request.agent && (
          <span className="approval__agent" data-testid="approval-agent" title={request.agent.description}>
            {request.agent.type} ›{' '}
          </span>
        )}
        <strong>{request.toolName}</strong> {preview?.kind === 'diff' ? preview.filePath : ''}
      </p>
      {request.agent && (
        <p className="approval__why">
          Asked by a subagent: {request.agent.description}
        </p>
      )}
      {(preview?.kind === 'diff' || preview?.kind === 'path') && preview.realPath && (
        <p className="approval__why" role="note" data-testid="approval-real-path">
          Through a symlink, this really {preview.kind === 'path' && preview.operation === 'read' ? 'reads' : 'writes'} <code>{preview.realPath}</code>
        </p>
      )}
      <p className="approval__why" data-testid="approval-why">
        Asked because: {request.explanation.text}
      </p>
      {preview?.kind === 'diff' ? (
        <LazyBoundary what="the diff" fallback={<p className="approval__muted">Loading the diff…</p>}>
          <EditApproval id={request.id} filePath={preview.filePath} before={preview.before} after={preview.after} busy={busy} onReply={onReply} />
        </LazyBoundary>
      ) : preview?.kind === 'questions' ? (
        <QuestionCard id={request.id} questions={preview.questions} busy={busy} onReply={onReply} />
      ) : preview?.kind === 'plan' ? (
        <PlanApproval id={request.id} plan={preview.plan} busy={busy} onReply={onReply} {...(preview.filePath && { filePath: preview.filePath })} {...(onOpenPlan && { onOpenFile: onOpenPlan })} />
      ) : (
        <>
          {preview?.kind === 'command' && <CommandApproval preview={preview} />}
          {preview?.kind === 'text' && <pre className="approval__text">{preview.text}</pre>}
          {preview?.kind === 'path' && (
            <p>
              {preview.operation === 'edit' ? 'Edits' : 'Reads'} <code>{preview.path}</code>
            </p>
          )}
          {preview?.kind === 'url' && (
            <p>
              Fetches <code>{preview.url}</code>
            </p>
          )}
          {!preview && <pre className="approval__text">{JSON.stringify(request.input, null, 2)}</pre>}
          <ApprovalChoices request={request} busy={busy} onReply={onReply} />
        </>
      )}
      {error && (
        <p className="pane__error" role="alert">
          {error}
        </p>
      )}
    </article>
  )
}
