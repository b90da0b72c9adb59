/**
 * The devices plugin's screens (package export `./screens`, read by runtime-web through
 * virtual:tramita-screens): each loads as its own chunk on its first visit. Both are for superusers
 * (spec 001 §2), as their routes are (server/admin/routes.ts).
 */
import { defineWebPlugin } from '@tramita/plugin-api/web'

export default defineWebPlugin({
  screens: [
    // Agents: made with a token shown once, renamed, revoked.
    { path: '/devices/agents', load: () => import('./screens/Agents.js') },
    // Machines as their agents report them: described and assigned to the people who may use them.
    { path: '/devices/machines', load: () => import('./screens/Machines.js') },
  ],
})
