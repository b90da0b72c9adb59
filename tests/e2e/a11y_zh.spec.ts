import { a11yWalk } from './a11y_walk.ts'

a11yWalk('zh')
