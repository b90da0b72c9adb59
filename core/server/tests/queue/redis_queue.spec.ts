import { queueContract } from './contract.js'

queueContract('redis')
