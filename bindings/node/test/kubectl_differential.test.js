'use strict'
// The package against kubectl, as the Python package's test_kubectl_differential.py does it
// (whose docstring explains the method): random new versions of an object of every kind in
// examples/manifests, the patch made by `diff`, and `merge` against `kubectl patch --local`,
// both results printed by kubectl. Skips, saying so, without kubectl or with a version other
// than v1.32 or v1.33.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFile } = require('node:child_process')
const { promisify } = require('node:util')
const { smp, REPO } = require('./support.js')

const run = promisify(execFile)
const CASES_PER_KIND = 4
const PROTECTED = new Set(['apiVersion', 'kind', 'name', 'namespace', 'containerPort', 'port', 'mountPath',
  'devicePath', 'ip', 'type', 'topologyKey', 'whenUnsatisfiable', 'protocol'])
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/
const KNOWN = {
  'unable to find api field': "an unknown field's object or list merged (RawExtension's content)",
  'data type is not struct, instead is: map': 'a list in a map of lists (CSR spec.extra)'
}

function kubectlBinary () {
  const candidates = [process.env.SMP_KUBECTL, path.join(os.homedir(), '.cache', 'smp', 'kubectl', 'kubectl'),
    ...(process.env.PATH || '').split(':').map(d => path.join(d, 'kubectl'))]
  return candidates.find(p => p && fs.existsSync(p)) || null
}
const KUBECTL = kubectlBinary()
// The kubectl minors whose differences from smp are known and listed (as for the Rust
// differential, smp-cli/tests/kubectl_differential): another version's results may differ.
const SUPPORTED_MINORS = [32, 33]

function kubectlMinor (binary) {
  try {
    const out = JSON.parse(require('node:child_process').execFileSync(binary, ['version', '--client', '-o', 'json']))
    const digits = /^\d+/.exec(out.clientVersion?.minor ?? '')
    return digits ? Number(digits[0]) : null
  } catch {
    return null
  }
}

const SKIP = !KUBECTL
  ? 'kubectl not found (SMP_KUBECTL, .ci/install-kubectl, PATH): not run'
  : SUPPORTED_MINORS.includes(kubectlMinor(KUBECTL)) ? false : `kubectl ${KUBECTL} is v1.${kubectlMinor(KUBECTL)}, not v1.32 or v1.33: not run`

/** A small seeded generator (xorshift), so that each case is the same on every run. */
function rng (seed) {
  let x = seed >>> 0 || 1
  const next = () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x / 4294967296 }
  return { next, int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)), pick: a => a[Math.floor(next() * a.length)] }
}

function seedOf (text) {
  let h = 2166136261
  for (const c of text) { h ^= c.charCodeAt(0); h = Math.imul(h, 16777619) >>> 0 }
  return h
}

function * spots (doc) {
  if (Array.isArray(doc)) {
    for (let i = 0; i < doc.length; i++) { yield [doc, i]; yield * spots(doc[i]) }
  } else if (doc && typeof doc === 'object') {
    for (const key of Object.keys(doc)) { yield [doc, key]; yield * spots(doc[key]) }
  }
}

function changed (value, r) {
  if (typeof value === 'boolean') return !value
  if (typeof value === 'number') return value + r.int(1, 5)
  if (typeof value === 'string' && TIME.test(value)) return `20${r.int(10, 29)}-0${r.int(1, 9)}-1${r.int(0, 9)}T08:00:00Z`
  if (typeof value === 'string') return `${value}-${r.pick(['x', 'y', 'z'])}`
  return value
}

function mutate (doc, r) {
  const next = structuredClone(doc)
  for (let n = r.int(1, 4); n > 0; n--) {
    const all = [...spots(next)].filter(([, k]) => !(typeof k === 'string' && PROTECTED.has(k)))
    if (!all.length) break
    const [container, key] = r.pick(all)
    const value = container[key]
    const action = r.next()
    if (Array.isArray(value) && value.length && action < 0.5) {
      if (value[0] && typeof value[0] === 'object' && 'name' in value[0]) {
        const extra = structuredClone(r.pick(value))
        extra.name = `${extra.name}-${r.int(0, 99)}`
        value.splice(r.int(0, value.length), 0, extra)
      } else if (value.length > 1) {
        const i = r.int(0, value.length - 1)
        const j = (i + 1) % value.length;
        [value[i], value[j]] = [value[j], value[i]]
      } else {
        value.push(structuredClone(value[0]))
      }
    } else if (!Array.isArray(container) && action < 0.7) {
      delete container[key]
    } else if (Array.isArray(container) && action < 0.7 && container.length > 1) {
      container.splice(key, 1)
    } else if (value === null || typeof value !== 'object') {
      container[key] = changed(value, r)
    }
  }
  return next
}

async function kubectlPatch (dir, doc, patch) {
  const file = path.join(dir, `${seedOf(JSON.stringify(doc) + Math.random())}.json`)
  fs.writeFileSync(file, JSON.stringify(doc))
  try {
    const { stdout } = await run(KUBECTL, ['patch', '--local', '-f', file, '--type', 'strategic', '-p', JSON.stringify(patch), '-o', 'json'])
    return [JSON.parse(stdout), null]
  } catch (e) {
    return [null, String(e.stderr || e.message).trim()]
  } finally {
    fs.rmSync(file, { force: true })
  }
}

async function runCase (dir, name, doc, seed) {
  const r = rng(seed)
  let patch = null
  for (let t = 0; t < 10 && patch === null; t++) {
    try { patch = smp.diff(doc, mutate(doc, r)) } catch (e) { if (!(e instanceof smp.PatchError)) throw e }
  }
  if (patch === null) return `${name} seed ${seed}: no patchable change in 10 tries`
  const [theirs, theirError] = await kubectlPatch(dir, doc, patch)
  let ours
  try {
    ours = smp.merge(doc, patch)
  } catch (e) {
    return theirError ? null : `${name} seed ${seed}: smp failed (${e.message}), kubectl did not`
  }
  if (theirError) {
    const known = Object.entries(KNOWN).find(([message]) => theirError.includes(message))
    return known ? { known: known[1] } : `${name} seed ${seed}: kubectl failed (${theirError}), smp did not\npatch: ${JSON.stringify(patch)}`
  }
  const [printed, error] = await kubectlPatch(dir, ours, {})
  if (error) return `${name} seed ${seed}: kubectl cannot print smp's result: ${error}`
  try { assert.deepEqual(printed, theirs) } catch { return `${name} seed ${seed}: results differ\npatch: ${JSON.stringify(patch)}` }
  return null
}

test('smp merges as kubectl patches, every kind', { skip: SKIP }, async () => {
  const yaml = text => smp.merge(text, {})
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-kubectl-'))
  try {
    const docs = fs.readdirSync(path.join(REPO, 'examples', 'manifests')).filter(f => f.endsWith('.yaml')).sort()
      .map(f => [f, yaml(fs.readFileSync(path.join(REPO, 'examples', 'manifests', f), 'utf8'))])
    const kinds = []
    const refused = []
    for (const [name, doc] of docs) {
      const [, error] = await kubectlPatch(dir, doc, {});
      (error ? refused : kinds).push([name, doc])
    }
    assert.ok(kinds.length >= 40, `kubectl patched only ${kinds.length} kinds`)
    const cases = kinds.flatMap(([name, doc]) => Array.from({ length: CASES_PER_KIND }, (_, i) => [name, doc, seedOf(`${name}/${i}`)]))
    const outcomes = []
    for (let i = 0; i < cases.length; i += 4) {
      outcomes.push(...await Promise.all(cases.slice(i, i + 4).map(c => runCase(dir, ...c))))
    }
    const failures = outcomes.filter(o => typeof o === 'string')
    const known = outcomes.filter(o => o && typeof o === 'object')
    assert.deepEqual(failures, [], `${failures.length} of ${cases.length} cases differ`)
    assert.ok(known.length <= cases.length / 10, `too many known differences: ${JSON.stringify(known)}`)
    console.log(`${cases.length - known.length} of ${cases.length} cases agree with kubectl; ${known.length} are documented differences; kinds kubectl refuses: ${refused.map(([n]) => n).join(', ')}`)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
