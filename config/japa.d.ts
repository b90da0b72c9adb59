// Brings the Japa plugins' TestContext augmentations (assert, client) into projects outside core/server.
import '@japa/assert'
import '@japa/api-client'
