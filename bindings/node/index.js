'use strict'
// kubernetes-smp: Kubernetes patches as the API server and kubectl compute them.
//
// Documents are plain objects, or JSON or YAML text. The native addon (binding.js, generated
// by napi-rs) reads JSON or YAML text and returns JSON; this file turns objects into JSON with
// JSON.stringify (a cycle or an over-deep object is JavaScript's own TypeError or RangeError),
// parses the results, and throws the errors below.

const native = require('./binding.js')

/** Base class of the errors this package throws. */
class SmpError extends Error {
  constructor (message) {
    super(message)
    this.name = this.constructor.name
  }
}

/** A document or patch that cannot be merged; `path` is the JSON path it names, if any. */
class PatchError extends SmpError {
  constructor (message, path) {
    super(message)
    this.path = path ?? null
  }
}

/**
 * A change that would undo another writer's: server-side apply over fields other managers own
 * (`force: true` takes them), or a three-way patch with `overwrite: false`. `conflicts` lists
 * `{manager, path}` per field (`manager` is null for a three-way conflict).
 */
class Conflict extends SmpError {
  constructor (message, conflicts) {
    super(message)
    this.conflicts = conflicts
  }

  /** The managers owning the conflicting fields, each once. */
  get managers () {
    return [...new Set(this.conflicts.map(c => c.manager).filter(m => m !== null))]
  }
}

/** An OpenAPI document, definition or CRD that does not load. */
class SchemaError extends SmpError {}

const ERRORS = { PatchError, Conflict, SchemaError }

function rethrow (e) {
  let described
  try {
    described = JSON.parse(e.message)
  } catch {
    throw e
  }
  const Class = ERRORS[described.kind]
  if (!Class) throw e
  if (Class === PatchError) throw new PatchError(described.message, described.path)
  if (Class === Conflict) throw new Conflict(described.message, described.conflicts)
  throw new SchemaError(described.message)
}

function call (f, ...args) {
  try {
    return f(...args)
  } catch (e) {
    rethrow(e)
  }
}

/** JSON or YAML text for the addon: text as it is, anything else through JSON.stringify. */
function text (doc) {
  if (doc === undefined || doc === null) return ''
  if (typeof doc === 'string') return doc
  if (Buffer.isBuffer(doc)) return doc.toString('utf8')
  const json = JSON.stringify(doc)
  if (json === undefined) throw new TypeError(`a document of type ${typeof doc} is not JSON`)
  return json
}

/** `'apps/v1/Deployment'` or `['apps/v1', 'Deployment']` as `[apiVersion, kind]`. */
function kindOf (kind) {
  if (kind === undefined || kind === null) return undefined
  if (Array.isArray(kind)) {
    if (kind.length !== 2) throw new TypeError('kind: [apiVersion, kind]')
    return kind
  }
  const at = kind.lastIndexOf('/')
  if (at <= 0 || at === kind.length - 1) {
    throw new TypeError(`kind '${kind}': expected 'apiVersion/Kind', e.g. 'apps/v1/Deployment'`)
  }
  return [kind.slice(0, at), kind.slice(at + 1)]
}

/** A `Crds`, or one made from sources: paths of files or directories, objects, text. */
function crdsOf (crds) {
  if (crds === undefined || crds === null || crds instanceof native.Crds) return crds ?? undefined
  const paths = []
  const documents = []
  for (const source of crds) {
    if (typeof source === 'string' && !/[\n{]/.test(source)) paths.push(source)
    else documents.push(text(source))
  }
  return call(() => new native.Crds(paths, documents))
}

function typing (options = {}) {
  return [kindOf(options.kind), options.schema ?? undefined, crdsOf(options.crds)]
}

/** `original` with the strategic merge patch `patch` applied, as `kubectl patch` applies it. */
function merge (original, patch, options) {
  return JSON.parse(call(native.merge, text(original), text(patch), ...typing(options)))
}

/** The strategic merge patch from `original` to `modified`. */
function diff (original, modified, options) {
  return JSON.parse(call(native.diff, text(original), text(modified), ...typing(options)))
}

/** The three-way patch `kubectl apply` sends (`overwrite: false` refuses others' changes). */
function threeWay (original, modified, current, options = {}) {
  const overwrite = options.overwrite ?? true
  return JSON.parse(call(native.threeWay, text(original), text(modified), text(current), overwrite, ...typing(options)))
}

/** Client-side apply, as `kubectl apply -f`: `{patch, result}`. */
function apply (live, config, options = {}) {
  const overwrite = options.overwrite ?? true
  return JSON.parse(call(native.apply, text(live), text(config), overwrite, ...typing(options)))
}

function nowOf (now) {
  if (now === undefined || now === null) return undefined
  if (now instanceof Date) return now.toISOString().replace(/\.\d{3}Z$/, 'Z')
  return now
}

/** Server-side apply by `options.manager`: the object the API server stores, with managedFields. */
function serverSideApply (live, config, options) {
  if (!options || typeof options.manager !== 'string') throw new TypeError('options.manager is required')
  return JSON.parse(call(native.serverSideApply, text(live), text(config), options.manager,
    options.force ?? false, options.subresource ?? undefined, crdsOf(options.crds), nowOf(options.now)))
}

/** A write that is not an apply, by `options.manager`: `newObject` with its managedFields. */
function update (live, newObject, options) {
  if (!options || typeof options.manager !== 'string') throw new TypeError('options.manager is required')
  return JSON.parse(call(native.update, text(live), text(newObject), options.manager,
    options.subresource ?? undefined, crdsOf(options.crds), nowOf(options.now)))
}

/** Union normalization (KEP-1027) of `newObject` given the object before (`old`). */
function normalize (newObject, old, options) {
  const before = old === undefined || old === null ? undefined : text(old)
  return JSON.parse(call(native.normalize, text(newObject), before, ...typing(options)))
}

/** A schema read from an OpenAPI document (an object or text) and a definition name. */
function schemaFromOpenapi (document, definition) {
  return call(() => native.Schema.fromOpenapi(text(document), definition))
}

module.exports = {
  KUBERNETES_VERSION: native.kubernetesVersion(),
  Crds: native.Crds,
  Schema: native.Schema,
  schemaFromOpenapi,
  crds: crdsOf,
  SmpError,
  PatchError,
  Conflict,
  SchemaError,
  merge,
  diff,
  threeWay,
  apply,
  serverSideApply,
  update,
  normalize
}
