'use strict'
// Strategic merge patches, client-side and server-side apply, errors.
const test = require('node:test')
const assert = require('node:assert/strict')
const { smp, example, REPO } = require('./support.js')

const containersOf = doc => Object.fromEntries(doc.spec.template.spec.containers.map(c => [c.name, c]))

test('the example patches as kubectl patches it', () => {
  const patched = smp.merge(example('deployment.yaml'), example('deployment-patch.yaml'))
  const app = containersOf(patched).app
  assert.equal(app.image, 'registry.example.com/shop/web:2.4.0')
  assert.ok(app.env.some(e => e.name === 'FEATURE_FLAGS' && e.value === 'fast-checkout'))
  assert.ok(app.env.length > 1, 'env merges by name')
  assert.equal(containersOf(patched)['log-shipper'], undefined, '$patch: delete')
  assert.deepEqual(patched.spec.strategy, { type: 'Recreate' })
  assert.ok(patched.metadata.finalizers.includes('shop.example.com/drain'))
  const asObjects = smp.merge(JSON.parse(JSON.stringify(patched)), {})
  assert.deepEqual(asObjects, patched)
})

test('lists merge by key only where the kind says so', () => {
  const pod = { apiVersion: 'v1', kind: 'Pod', spec: { containers: [{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:1' }] } }
  const patch = { spec: { containers: [{ name: 'b', image: 'b:2' }] } }
  assert.deepEqual(smp.merge(pod, patch).spec.containers, [{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:2' }])
  const bare = { spec: pod.spec }
  assert.deepEqual(smp.merge(bare, patch).spec.containers, patch.spec.containers)
  for (const kind of ['v1/Pod', ['v1', 'Pod']]) {
    assert.equal(smp.merge(bare, patch, { kind }).spec.containers.length, 2)
  }
})

test('errors are PatchError with the path, Conflict, SchemaError', () => {
  const pod = { apiVersion: 'v1', kind: 'Pod', spec: { containers: [{ name: 'a' }] } }
  assert.throws(() => smp.merge(pod, { spec: { containers: [{ image: 'x' }] } }), e =>
    e instanceof smp.PatchError && e instanceof smp.SmpError && e.path === 'spec.containers[0]')
  assert.throws(() => smp.merge([1], {}), /must be an object/)
  assert.throws(() => smp.merge('a: [', {}), smp.PatchError)
  const last = { data: { a: '1' } }
  assert.throws(() => smp.threeWay(last, { data: { a: '2' } }, { data: { a: '9' } }, { overwrite: false }), e =>
    e instanceof smp.Conflict && e.conflicts.length === 1 && e.conflicts[0].manager === null)
  assert.throws(() => smp.schemaFromOpenapi(example('pod-schema.json'), 'no.such.Definition'), smp.SchemaError)
})

test('cycles and deep nesting are errors, not crashes', () => {
  const loop = {}
  loop.self = loop
  assert.throws(() => smp.merge({}, loop), TypeError)
  let deep = {}
  const root = deep
  for (let i = 0; i < 100000; i++) { deep.a = {}; deep = deep.a }
  assert.throws(() => smp.merge({}, root), RangeError)
  let shallow = {}
  const top = shallow
  for (let i = 0; i < 1000; i++) { shallow.a = {}; shallow = shallow.a }
  assert.throws(() => smp.merge({}, top), smp.PatchError)
})

test('three-way and client-side apply', () => {
  const last = { apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1', b: '2' } }
  const config = { apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1', c: '3' } }
  const live = { apiVersion: 'v1', kind: 'ConfigMap', data: { a: '9', b: '2', x: 'y' } }
  assert.deepEqual(smp.threeWay(last, config, live), { data: { a: '1', b: null, c: '3' } })
  const { patch, result } = smp.apply(example('apply-config/live.yaml'), example('apply-config/desired.yaml'))
  assert.deepEqual(smp.merge(example('apply-config/live.yaml'), patch), result)
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } }
  const created = smp.apply(null, cm).result
  assert.deepEqual(smp.apply(created, cm).patch, {}, 'a no-op apply sends {}')
})

test('server-side apply: conflicts name the manager, force takes the field', () => {
  const now = '2026-11-29T12:00:00Z'
  const live = smp.serverSideApply(null, example('server-side/web.yaml'), { manager: 'kubectl', now })
  assert.equal(live.metadata.managedFields[0].time, now)
  assert.throws(() => smp.serverSideApply(live, example('server-side/scale.yaml'), { manager: 'autoscaler' }), e =>
    e instanceof smp.Conflict &&
    e.message === 'Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas' &&
    e.managers.length === 1 && e.managers[0] === 'kubectl')
  const forced = smp.serverSideApply(live, example('server-side/scale.yaml'), { manager: 'autoscaler', force: true, now: new Date(now) })
  assert.equal(forced.spec.replicas, 5)
  const updated = smp.update(forced, { ...forced, spec: { ...forced.spec, replicas: 7 } }, { manager: 'hpa', now })
  assert.ok(updated.metadata.managedFields.some(e => e.manager === 'hpa' && e.operation === 'Update'))
  assert.throws(() => smp.serverSideApply(null, {}, {}), TypeError)
})

test('normalize and custom resources', () => {
  const old = { apiVersion: 'apps/v1', kind: 'Deployment', spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } }
  const next = structuredClone(old)
  next.spec.strategy.type = 'Recreate'
  assert.deepEqual(smp.normalize(next, old).spec.strategy, { type: 'Recreate' })
  const crd = `${REPO}/examples/manifests/apiextensions.k8s.io-v1-customresourcedefinition.yaml`
  const crds = smp.crds([crd])
  assert.ok(crds.kinds().some(([v, k]) => v === 'shop.example.com/v1' && k === 'Storefront'))
  const patched = smp.merge(example('custom-resource/storefront.yaml'), example('custom-resource/storefront-patch.yaml'), { crds })
  assert.deepEqual(patched.spec.paymentProviders, ['adyen', 'stripe'])
  assert.deepEqual(patched.spec.domains.map(d => d.host), ['books.example.com', 'livres.example.com', 'www.books.example.com'])
})

test('a schema from an OpenAPI document', () => {
  const schema = smp.schemaFromOpenapi(example('pod-schema.json'), 'io.k8s.api.core.v1.Pod')
  const merged = smp.merge({ spec: { containers: [{ name: 'a' }] } }, { spec: { containers: [{ name: 'b' }] } }, { schema })
  assert.deepEqual(merged.spec.containers.map(c => c.name), ['b', 'a'])
})
