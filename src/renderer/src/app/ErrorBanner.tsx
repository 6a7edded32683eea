/** A failure the shell reports above the workspace until it is dismissed. */
export function ErrorBanner({ message, onDismiss }: { message: string; onDismiss(): void }) {
  return (
    <p className="connection-banner" role="alert">
      {message}{' '}
      <button type="button" className="button button--quiet button--small" onClick={onDismiss} aria-label="Dismiss error">
        ×
      </button>
    </p>
  )
}
