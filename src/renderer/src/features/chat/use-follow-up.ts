import { useEffect, useRef, useState } from 'react'

/** A message typed while the agent works, sent when its turn ends. */
export interface FollowUp {
  /** The queued text (several messages joined by a blank line); undefined when none. */
  queued: string | undefined
  /** Adds a message to the queue. */
  queue(text: string): void
  /** Takes the queued text back (for editing); the queue is empty afterwards. */
  takeBack(): string | undefined
}

/**
 * The follow-up queue of one conversation: sent with `send` as soon as `busy` turns false; if it
 * cannot be sent, `restore` gets it back (into the message box). Switching conversations
 * (`draftKey`) drops it: it was written for the old one.
 */
export function useFollowUp(draftKey: string, busy: boolean, send: (text: string) => Promise<boolean>, restore: (text: string) => void): FollowUp {
  const [queued, setQueued] = useState<string>()
  const key = useRef(draftKey)

  useEffect(() => {
    if (key.current === draftKey) return
    key.current = draftKey
    setQueued(undefined)
  }, [draftKey])

  // The turn ended: send the follow-up.
  const restoreRef = useRef(restore)
  restoreRef.current = restore
  useEffect(() => {
    if (busy || queued === undefined) return
    setQueued(undefined)
    void send(queued).then((sent) => {
      if (!sent) restoreRef.current(queued)
    })
  }, [busy, queued, send])

  return {
    queued,
    queue: (text) => setQueued((current) => (current ? `${current}\n\n${text}` : text)),
    takeBack() {
      setQueued(undefined)
      return queued
    },
  }
}
