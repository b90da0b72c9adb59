import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { call } from '@tramita/web/api'
import { toasts } from '@tramita/web/toasts'
import { filterTree, type TreeNode } from '../../lib/user_tree.js'

/** The hierarchical user tree (spec 001 §2): each user under their superior (parent_id). */
export function UserTree() {
  const { t } = useTranslation()
  const [tree, setTree] = useState<TreeNode[] | null>(null)
  const [search, setSearch] = useState('')
  const [closed, setClosed] = useState<Set<number>>(new Set())

  useEffect(() => {
    call<TreeNode[]>('GET', '/inside/users/tree')
      .then((body) => setTree(body.data ?? []))
      .catch((error: Error) => toasts.error(error.message))
  }, [])

  const shown = useMemo(() => filterTree(tree ?? [], search), [tree, search])
  const searching = search.trim() !== ''

  function toggle(id: number) {
    setClosed((prev) => {
      const next = new Set(prev)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  }

  function branch(nodes: TreeNode[], level: number) {
    return nodes.map((node) => {
      // While searching every branch that leads to a match is open.
      const open = searching || !closed.has(node.id)
      const hasChildren = node.children.length > 0
      return (
        <li
          key={node.id}
          role="treeitem"
          aria-level={level}
          aria-expanded={hasChildren ? open : undefined}
          data-username={node.username}
        >
          <div className="tree__row">
            {hasChildren ? (
              <button
                type="button"
                className="tree__toggle"
                aria-label={
                  open ? t('users.collapse', { user: node.username }) : t('users.expand', { user: node.username })
                }
                onClick={() => toggle(node.id)}
              >
                {open ? '▾' : '▸'}
              </button>
            ) : (
              <span className="tree__toggle" aria-hidden="true" />
            )}
            <Link to={`/users/${node.id}`}>{`${node.first_name} ${node.last_name}`.trim() || node.username}</Link>
            <span className="tree__username">@{node.username}</span>
            {hasChildren && <span className="tree__count">{node.children.length}</span>}
          </div>
          {hasChildren && open && <ul role="group">{branch(node.children, level + 1)}</ul>}
        </li>
      )
    })
  }

  return (
    <>
      <div className="users__bar">
        <input
          type="search"
          aria-label={t('users.search')}
          placeholder={t('users.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      {tree && shown.length === 0 && <p>{t('users.none')}</p>}
      <ul className="tree" role="tree" aria-label={t('users.view_tree')} data-testid="users-tree">
        {branch(shown, 1)}
      </ul>
    </>
  )
}
