// The page frame lives in @tramita/web, so plugins' screens share it.
export { Page } from '@tramita/web/Page'
