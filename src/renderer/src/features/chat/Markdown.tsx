import { memo, useMemo } from 'react'
import { renderMarkdown } from './markdown'

/** Model text as markdown; `renderMarkdown` escapes raw HTML and unsafe links first. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text])
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
})
