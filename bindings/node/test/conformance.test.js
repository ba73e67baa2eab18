'use strict'
// The upstream strategic merge patch corpus (tests/conformance/upstream, FORMAT.md) through the
// package, in both OpenAPI variants of the test schemas smp records (tests/conformance/schemas):
// the same cases, judged the same way, as the Python package's test_conformance.py (whose
// docstring says what is left out and why).
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { smp, REPO } = require('./support.js')

const CORPUS = path.join(REPO, 'tests', 'conformance', 'upstream')
const SCHEMAS = path.join(REPO, 'tests', 'conformance', 'schemas')
const VARIANTS = ['openapiV2', 'openapiV3']
const FILES = ['two-and-three-way.json', 'raw-cases.json', 'raw-extension.json', 'custom-apply.json',
  'number-conversion.json', 'unknown-field.json', 'bad-arguments.json']

const gaps = new Set(fs.readFileSync(path.join(REPO, 'tests', 'conformance', 'known-gaps.txt'), 'utf8')
  .split('\n').map(l => l.split('#')[0].trim()).filter(Boolean).map(l => l.split(/\s+/).pop()))

const schemas = new Map()
function schema (name, variant) {
  const key = `${name}.${variant}`
  if (!schemas.has(key)) {
    schemas.set(key, smp.schemaFromOpenapi(fs.readFileSync(path.join(SCHEMAS, `${key}.json`), 'utf8'), name))
  }
  return schemas.get(key)
}

function doc (c, name) {
  if (c.sortInputs && c.upstreamSorted && name in c.upstreamSorted) return c.upstreamSorted[name]
  if (c.text && name in c.text) return c.text[name]
  return c[name]
}

function expected (c, name) {
  const v = doc(c, name)
  return typeof v === 'string' ? JSON.parse(v) : v
}

/** Numbers compared by value (Go prints the float 1.0 as 1), as FORMAT §2.3 says. */
function same (a, b) {
  assert.deepEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)))
}

function run (file, c, variant) {
  const s = schema(c.schema, variant)
  const ops = c.operations
  const original = doc(c, 'original')
  const modified = doc(c, 'modified')
  const current = doc(c, 'current')
  if (ops.includes('apply')) {
    const hasPatch = 'patch' in c || (c.text && 'patch' in c.text)
    const patch = hasPatch ? doc(c, 'patch') : doc(c, 'twoWay')
    if (c.expectedError !== undefined) {
      assert.throws(() => smp.merge(original, patch, { schema: s }), e => {
        assert.ok(e instanceof smp.SmpError, String(e))
        if (file === 'bad-arguments.json') {
          // Text is read as JSON or YAML: `<THIS IS NOT JSON>` is a YAML string.
          assert.match(e.message, /must be an object, not string/)
        } else {
          assert.ok(e.message.includes(c.expectedError), e.message)
        }
        return true
      })
      return
    }
    const want = doc(c, 'twoWayResult') !== undefined ? expected(c, 'twoWayResult') : expected(c, 'modified')
    same(smp.merge(original, patch, { schema: s }), want)
    return
  }
  if (ops.includes('createTwoWay')) {
    let two = null
    try {
      two = smp.diff(original, modified, { schema: s })
    } catch (e) {
      assert.ok(c.expectedTwoWayError !== undefined && e.message.includes(c.expectedTwoWayError), e.message)
    }
    if (two !== null) {
      same(two, expected(c, 'twoWay'))
      if (ops.includes('applyTwoWay') || file === 'number-conversion.json' || file === 'unknown-field.json') {
        if (c.expectedError !== undefined) {
          assert.throws(() => smp.merge(original, two, { schema: s }), e => e.message.includes(c.expectedError))
        } else {
          const want = expected(c, 'twoWayResult') ?? expected(c, 'modified')
          same(smp.merge(original, two, { schema: s }), want)
        }
      }
    }
  }
  if (ops.includes('createThreeWay')) {
    let three
    if (c.expectConflict) {
      assert.throws(() => smp.threeWay(original, modified, current, { overwrite: false, schema: s }), smp.Conflict)
      if (!ops.includes('createThreeWayOverwrite')) return
      three = smp.threeWay(original, modified, current, { overwrite: true, schema: s })
    } else {
      try {
        three = smp.threeWay(original, modified, current, { overwrite: false, schema: s })
      } catch (e) {
        assert.ok(c.expectedThreeWayError !== undefined && e.message.includes(c.expectedThreeWayError), e.message)
        return
      }
    }
    same(three, expected(c, 'threeWay'))
    if (ops.includes('applyThreeWay') || file === 'unknown-field.json') {
      same(smp.merge(current, three, { schema: s }), expected(c, 'result'))
    }
  }
}

let count = 0
for (const file of FILES) {
  const data = JSON.parse(fs.readFileSync(path.join(CORPUS, file), 'utf8'))
  for (const c of data.cases) {
    const variants = c.schemaVariants ?? data.schemaVariants ?? VARIANTS
    for (const variant of VARIANTS) {
      if (!variants.includes(variant)) continue
      count++
      test(`${c.id} ${variant}`, { skip: gaps.has(c.id) && 'listed in known-gaps.txt' }, () => run(file, c, variant))
    }
  }
}

test('every case of the corpus ran', () => {
  assert.equal(count, 340)
})
