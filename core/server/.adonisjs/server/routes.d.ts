import '@adonisjs/core/types/http'

type ParamValue = string | number | bigint | boolean

export type ScannedRoutes = {
  ALL: {
    'health.show': { paramsTuple?: []; params?: {} }
    'institution.info': { paramsTuple?: []; params?: {} }
    'plugins.index': { paramsTuple?: []; params?: {} }
    'web.serve': { paramsTuple: [...ParamValue[]]; params: {'*': ParamValue[]} }
  }
  GET: {
    'health.show': { paramsTuple?: []; params?: {} }
    'institution.info': { paramsTuple?: []; params?: {} }
    'plugins.index': { paramsTuple?: []; params?: {} }
    'web.serve': { paramsTuple: [...ParamValue[]]; params: {'*': ParamValue[]} }
  }
  HEAD: {
    'health.show': { paramsTuple?: []; params?: {} }
    'institution.info': { paramsTuple?: []; params?: {} }
    'plugins.index': { paramsTuple?: []; params?: {} }
    'web.serve': { paramsTuple: [...ParamValue[]]; params: {'*': ParamValue[]} }
  }
}
declare module '@adonisjs/core/types/http' {
  export interface RoutesList extends ScannedRoutes {}
}