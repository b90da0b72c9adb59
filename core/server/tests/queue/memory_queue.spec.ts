import { queueContract } from './contract.js'

queueContract('memory')
