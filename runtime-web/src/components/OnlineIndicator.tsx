import { useTranslation } from 'react-i18next'
import type { OnlineState } from '../hooks/useOnline.js'

export function OnlineIndicator({ state }: { state: OnlineState }) {
  const { t } = useTranslation()
  return (
    <span className="online" data-testid="online-status" data-state={state} role="status">
      <span className="online__dot" aria-hidden="true" />
      {t(state === 'online' ? 'online.online' : 'online.offline')}
    </span>
  )
}
