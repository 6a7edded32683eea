import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App'
import { startEventFeed } from './app/event-feed'
import './app/base.css'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
// Before the first render, as the stores' own subscriptions used to start when they were imported.
startEventFeed()
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
