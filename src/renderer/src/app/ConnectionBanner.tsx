import { useEffect, useState } from 'react'
import { connection, type ConnectionState } from '../api'

/** Says so when the browser host's connection is down; silent while all is well. */
export function ConnectionBanner() {
  const [state, setState] = useState<ConnectionState>(connection.state)
  useEffect(() => {
    setState(connection.state)
    return connection.onState(setState)
  }, [])
  if (state === 'open' || state === 'connecting') return null
  return (
    <p className="connection-banner" role="alert">
      {state === 'reconnecting'
        ? 'Lost the connection to Sous — reconnecting…'
        : 'Disconnected from Sous. Reload to reconnect.'}
    </p>
  )
}
