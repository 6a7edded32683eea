import { useChat } from './store'

/**
 * Says once, above the conversation, that Bash runs without the OS sandbox and what follows from
 * it: in bypassPermissions commands run unconfined; otherwise commands that change things ask.
 */
export function SandboxBanner() {
  const sandbox = useChat((state) => state.sandbox)
  const dismiss = useChat((state) => state.dismissSandbox)
  if (!sandbox) return null
  const reason = sandbox.reason.replace(/^sandbox unavailable:\s*/, '')
  return (
    <div className="banner banner--warning" role="region" aria-label="Sandbox unavailable">
      <p>
        <strong>The OS sandbox is unavailable</strong> ({reason}).{' '}
        {sandbox.unconfined
          ? 'Bypass permissions is on, so commands run unconfined.'
          : 'Commands that change things ask before they run.'}{' '}
        On Linux it needs bubblewrap and socat.
      </p>
      <button type="button" className="button button--small" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  )
}
