'use strict'
// What smp's Node package costs per call, beside what Node programs do today.
//
//   node bench/compare.js          # from bindings/node, after `npm ci && npm run build`
//
// On the benchmark Pods of the shared data (`bench/pod3*.json`, `pod50*.json`: 3 and 50
// containers): the image patch by smp (objects in and out, and JSON text in), by
// `kubectl patch --local` as a subprocess, and by `json-merge-patch` (RFC 7386, which replaces
// lists: its answer is wrong for a strategic patch, which the table says); the three-way patch;
// and the crossing: `merge({}, {})` and an empty patch merged into each Pod. Each figure is the
// median of 7 rounds, each sized to about 0.2 s, per call, in one run. A benchmark, not a test.
const fs = require('node:fs')
const path = require('node:path')
const os = require('node:os')
const { execFileSync } = require('node:child_process')
const smp = require('..')
const jsonMergePatch = require('json-merge-patch')

const REPO = path.resolve(__dirname, '..', '..', '..')
const SHARED = process.env.SMP_SHARED_DIR || path.join(REPO, '..', 'shared')
const fixture = name => JSON.parse(fs.readFileSync(path.join(SHARED, 'bench', name), 'utf8'))

function perCall (f) {
  let n = 1
  for (;;) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < n; i++) f()
    const took = Number(process.hrtime.bigint() - start) / 1e9
    if (took > 0.2) break
    n *= 2
  }
  const rounds = []
  for (let r = 0; r < 7; r++) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < n; i++) f()
    rounds.push(Number(process.hrtime.bigint() - start) / 1e9 / n)
  }
  rounds.sort((a, b) => a - b)
  return rounds[3]
}

function fmt (s) {
  if (s === null) return 'n/a'
  if (s >= 1e-3) return `${(s * 1e3).toPrecision(3)} ms`
  if (s >= 1e-6) return `${(s * 1e6).toPrecision(3)} µs`
  return `${(s * 1e9).toPrecision(3)} ns`
}

function kubectl () {
  const candidates = [process.env.SMP_KUBECTL, ...(process.env.PATH || '').split(':').map(d => path.join(d, 'kubectl'))]
  return candidates.find(p => p && fs.existsSync(p)) || null
}

const rows = []
const notes = []
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-bench-'))
for (const size of ['pod3', 'pod50']) {
  const pod = fixture(`${size}.json`)
  const patch = fixture(`${size}-image-patch.json`)
  const modified = fixture(`${size}-many-modified.json`)
  const current = fixture(`${size}-current.json`)
  const podText = JSON.stringify(pod)
  const patchText = JSON.stringify(patch)
  const want = smp.merge(pod, patch)
  rows.push([`merge, ${size} image patch`, 'smp (objects)', perCall(() => smp.merge(pod, patch))])
  rows.push(['', 'smp (JSON text in)', perCall(() => smp.merge(podText, patchText))])
  const bin = kubectl()
  if (bin) {
    const file = path.join(dir, `${size}.json`)
    fs.writeFileSync(file, podText)
    const run = () => JSON.parse(execFileSync(bin, ['patch', '--local', '-f', file, '--type', 'strategic', '-p', patchText, '-o', 'json']))
    if (JSON.stringify(run()) !== JSON.stringify(want)) notes.push(`${size}: kubectl and smp disagree`)
    rows.push(['', 'kubectl patch --local (subprocess)', perCall(run)])
  } else {
    rows.push(['', 'kubectl patch --local (subprocess)', null])
    notes.push('kubectl not found: its rows are empty')
  }
  const byJs = jsonMergePatch.apply(structuredClone(pod), patch)
  const containers = byJs.spec.containers.length
  rows.push(['', `json-merge-patch (RFC 7386; leaves ${containers} of ${pod.spec.containers.length} containers)`,
    perCall(() => jsonMergePatch.apply(structuredClone(pod), patch))])
  rows.push([`three-way, ${size} many fields`, 'smp', perCall(() => smp.threeWay(pod, modified, current))])
  rows.push([`crossing, ${size}`, 'merge of an empty patch', perCall(() => smp.merge(pod, {}))])
}
rows.push(['crossing', 'merge({}, {})', perCall(() => smp.merge({}, {}))])
fs.rmSync(dir, { recursive: true, force: true })

console.log(`Node ${process.version}, smp ${smp.KUBERNETES_VERSION}, per call (median of 7):\n`)
console.log('| work | how | per call |')
console.log('|---|---|---|')
for (const [work, how, t] of rows) console.log(`| ${work} | ${how} | ${fmt(t)} |`)
if (notes.length) console.log('\n' + [...new Set(notes)].map(n => `- ${n}`).join('\n'))
