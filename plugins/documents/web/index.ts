/**
 * The documents plugin's screens (package export `./screens`, read by runtime-web through
 * virtual:tramita-screens): each loads as its own chunk on its first visit.
 */
import { defineWebPlugin } from '@tramita/plugin-api/web'

export default defineWebPlugin({
  screens: [
    { path: '/documents', load: () => import('./screens/MyDocuments.js') },
    { path: '/documents/shared', load: () => import('./screens/SharedWithMe.js') },
    { path: '/documents/recent', load: () => import('./screens/Recent.js') },
    { path: '/documents/trash', load: () => import('./screens/RecycleBin.js') },
    // The indexes (their names, columns and sub-indexes), for every signed-in user as the routes allow.
    { path: '/documents/indexes', load: () => import('./screens/IndexAdmin.js') },
    // Retention schedules and their assignments: administrators (the routes refuse anyone else).
    { path: '/documents/retention', load: () => import('./screens/RetentionAdmin.js') },
    // A public link's screen (spec 001 §2): opened by anyone holding the link.
    { path: '/static/public/:token', load: () => import('./screens/PublicLink.js'), public: true },
    // The retention confirmation (spec 000 §2, 001 §2): opened from its mail with ?code=…&user=…, no session.
    { path: '/confirmretention', load: () => import('./screens/ConfirmRetention.js'), public: true },
  ],
})
