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
    // A public link's screen (spec 001 §2): opened by anyone holding the link.
    { path: '/static/public/:token', load: () => import('./screens/PublicLink.js'), public: true },
  ],
})
