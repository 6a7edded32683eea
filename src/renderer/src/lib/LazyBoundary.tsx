import { Component, Suspense, type ErrorInfo, type ReactNode } from 'react'

interface LazyBoundaryProps {
  /** What is loading, for the error ("the terminal", "the diff"). */
  what: string
  /** Shown while the chunk is on its way. */
  fallback?: ReactNode
  /** How to show the failure (a dialog shows it in a dialog, so it can be closed); a line by default. */
  renderError?(message: string): ReactNode
  children: ReactNode
}

/**
 * Where a lazily loaded part of the window goes: a Suspense for the wait, and an error boundary so
 * a chunk that fails to load (or a view that throws while rendering) says so in its own place
 * instead of taking the whole window down with it.
 */
export class LazyBoundary extends Component<LazyBoundaryProps, { error: Error | null }> {
  override state = { error: null as Error | null }

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`${this.props.what} failed`, error, info.componentStack)
  }

  override render(): ReactNode {
    if (this.state.error) {
      const message = `${capitalise(this.props.what)} could not be shown: ${this.state.error.message}. Reload the window to try again.`
      return (
        this.props.renderError?.(message) ?? (
          <p className="pane__error" role="alert">
            {message}
          </p>
        )
      )
    }
    return <Suspense fallback={this.props.fallback ?? null}>{this.props.children}</Suspense>
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
